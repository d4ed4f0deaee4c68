package keys

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/big"
	"strings"
	"testing"
)

// The allocation-free checksum must stay the one every issued key carries: CRC-32 as
// big.Int's base 62, padded with '0' to six characters.
func TestChecksumMatchesTheIssuedFormat(t *testing.T) {
	reference := func(s string) string {
		var buf [4]byte
		binary.BigEndian.PutUint32(buf[:], crc32.ChecksumIEEE([]byte(s)))
		enc := new(big.Int).SetBytes(buf[:]).Text(62)
		return strings.Repeat("0", checksumLen-len(enc)) + enc
	}
	for i := range 20000 {
		s := fmt.Sprintf("svc_%d_%s", i, strings.Repeat("x", i%90))
		if got, want := checksum(s), reference(s); got != want {
			t.Fatalf("checksum(%q) = %q, want %q", s, got, want)
		}
	}
	unsigned := TokenPrefix + strings.Repeat("A", bodyLen-checksumLen)
	valid := unsigned + checksum(unsigned)
	if _, err := ParseToken(valid); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseToken(valid) }); n != 0 {
		t.Errorf("ParseToken of a valid token allocates %v times, want 0 (it runs on every request)", n)
	}
}
