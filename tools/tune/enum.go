package main

import (
	"fmt"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
)

// letterOf reads the key value s of the named key as the one-letter enum
// it spells: the batchlas enums (Uplo, Side, Transpose, Diag) are bytes
// whose values are their key letters ('L', 'N', ...), so one parser serves
// them all. allowed lists the enum's values.
func letterOf[E ~byte](key, s string, allowed ...E) (E, error) {
	if len(s) == 1 {
		for _, e := range allowed {
			if E(s[0]) == e {
				return e, nil
			}
		}
	}
	letters := make([]string, len(allowed))
	for i, e := range allowed {
		letters[i] = string(rune(e))
	}
	return 0, fmt.Errorf("%s %s: want %s", key, quote.Q(s), strings.Join(letters, " or "))
}
