package webhooks

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// unnestRows is PostgreSQL's list of rows given as one array per column, named as VALUES
// names its columns.
func unnestRows(types []string) string {
	var b strings.Builder
	b.WriteString("SELECT * FROM unnest(")
	for i, t := range types {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("CAST(? AS " + t + "[])")
	}
	b.WriteString(") AS v(")
	for i := range types {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("column" + strconv.Itoa(i+1))
	}
	b.WriteString(")")
	return b.String()
}

// columnArrays turns rows of arguments (row after row, one value per type) into one array
// per column, typed for unnestRows' casts.
func columnArrays(args []any, types []string) []any {
	n := len(types)
	rows := len(args) / n
	out := make([]any, n)
	for c, t := range types {
		switch t {
		case "TEXT":
			col := make([]string, rows)
			for r := range rows {
				col[r] = args[r*n+c].(string)
			}
			out[c] = col
		case "INTEGER":
			col := make([]int32, rows)
			for r := range rows {
				switch v := args[r*n+c].(type) {
				case int:
					col[r] = int32(v)
				case int64:
					col[r] = int32(v)
				default:
					panic(fmt.Sprintf("columnArrays: %T for INTEGER", v))
				}
			}
			out[c] = col
		case "TIMESTAMPTZ":
			col := make([]*time.Time, rows)
			for r := range rows {
				switch v := args[r*n+c].(type) {
				case time.Time:
					col[r] = &v
				case *time.Time:
					col[r] = v
				default:
					panic(fmt.Sprintf("columnArrays: %T for TIMESTAMPTZ", v))
				}
			}
			out[c] = col
		default:
			panic("columnArrays: no array for " + t)
		}
	}
	return out
}
