package orders

import (
	"strings"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// isoCurrencies are the active ISO 4217 codes, lowercase, space separated. A closed list
// (not just "three letters") so that a typo such as "uds" is refused instead of opening a
// revenue row nobody can reconcile. Funds codes, precious metals and test codes are left out.
const isoCurrencies = " aed afn all amd ang aoa ars aud awg azn" +
	" bam bbd bdt bgn bhd bif bmd bnd bob brl bsd btn bwp byn bzd" +
	" cad cdf chf clp cny cop crc cup cve czk djf dkk dop dzd egp ern etb eur" +
	" fjd fkp gbp gel ghs gip gmd gnf gtq gyd hkd hnl htg huf idr ils inr iqd irr isk" +
	" jmd jod jpy kes kgs khr kmf kpw krw kwd kyd kzt lak lbp lkr lrd lsl lyd" +
	" mad mdl mga mkd mmk mnt mop mru mur mvr mwk mxn myr mzn nad ngn nio nok npr nzd" +
	" omr pab pen pgk php pkr pln pyg qar ron rsd rub rwf" +
	" sar sbd scr sdg sek sgd shp sle sos srd ssp stn svc syp szl" +
	" thb tjs tmt tnd top try ttd twd tzs uah ugx usd uyu uzs ves vnd vuv wst" +
	" xaf xcd xcg xof xpf yer zar zmw zwg "

// ValidateCurrency accepts a lowercase active ISO 4217 code ("usd"). Uppercase is refused
// rather than folded: the contract shows currencies lowercase, and one spelling keeps
// revenue rows from splitting.
func ValidateCurrency(code string) error {
	if len(code) != 3 || strings.ToLower(code) != code || !strings.Contains(isoCurrencies, " "+code+" ") {
		return kernel.Invalid("currency", "currency must be a lowercase ISO 4217 code such as \"usd\" or \"eur\"; got %q", code)
	}
	return nil
}
