package quote

import (
	"strconv"
	"unicode/utf8"
)

// MaxValue is the most bytes of a value a message repeats.
const MaxValue = 80

// MaxMessage is the most bytes of a whole message.
const MaxMessage = 1024

// Q quotes s as %q does, cut at MaxValue bytes: a longer value is written
// as its first bytes, "...", and its length, `"abcd..." (120000 bytes)`.
// The cut falls on a UTF-8 character boundary, so the quoted prefix is
// never a broken character.
func Q(s string) string {
	if len(s) <= MaxValue {
		return strconv.Quote(s)
	}
	return strconv.Quote(prefix(s, MaxValue)+"...") + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// Cut is Q without the quotes, for a value a message writes bare (a path):
// `abcd... (120000 bytes)`. A short value is returned as it is.
func Cut(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	return prefix(s, MaxValue) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Message cuts a whole message at MaxMessage bytes, ending a cut one with
// "... (N bytes)" inside the bound. Messages that quote their values with
// Q stay far below it; this is the last guard for one that lists many.
func Message(msg string) string {
	if len(msg) <= MaxMessage {
		return msg
	}
	tail := "... (" + strconv.Itoa(len(msg)) + " bytes)"
	return prefix(msg, MaxMessage-len(tail)) + tail
}

// prefix is s cut to at most n bytes, backing off to a character
// boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
