package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQShortValueIsPlainQuote(t *testing.T) {
	for _, s := range []string{"", "abc", "a\"b\n", strings.Repeat("x", MaxValue)} {
		if got, want := Q(s), `"`+strings.ReplaceAll(strings.ReplaceAll(s, `"`, `\"`), "\n", `\n`)+`"`; got != want {
			t.Errorf("Q(%d bytes) = %s, want %s", len(s), got, want)
		}
	}
}

func TestQLongValueIsCutAndMarked(t *testing.T) {
	s := strings.Repeat("p", 120000)
	got := Q(s)
	want := `"` + strings.Repeat("p", MaxValue) + `..." (120000 bytes)`
	if got != want {
		t.Fatalf("Q(120000 bytes) = %s, want %s", got, want)
	}
	if c := Cut(s); c != strings.Repeat("p", MaxValue)+"... (120000 bytes)" {
		t.Fatalf("Cut(120000 bytes) = %s", c)
	}
}

func TestCutKeepsCharactersWhole(t *testing.T) {
	s := "a" + strings.Repeat("é", 100) // the 80-byte mark falls inside a character
	c := Cut(s)
	p, _, _ := strings.Cut(c, "...")
	if !utf8.ValidString(p) || len(p) > MaxValue || len(p) < MaxValue-1 {
		t.Fatalf("Cut gave prefix of %d bytes, valid %v: %q", len(p), utf8.ValidString(p), p)
	}
}

func TestMessageBound(t *testing.T) {
	short := "batchlas: fine"
	if Message(short) != short {
		t.Fatalf("Message changed a short message")
	}
	long := strings.Repeat("m", 5000)
	got := Message(long)
	if len(got) > MaxMessage || !strings.HasSuffix(got, "... (5000 bytes)") {
		t.Fatalf("Message(5000 bytes) gave %d bytes ending %q", len(got), got[len(got)-20:])
	}
}
