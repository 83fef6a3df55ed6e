// Package quote bounds what the library's messages echo back: a user's
// value (an environment variable, a pin, a table word, a file name) is
// quoted and cut at MaxValue bytes with a visible mark, and a whole
// message is cut at MaxMessage bytes. Every error and warning of the
// library and its tools that repeats a value it was given goes through
// here, so that a 120 KB value cannot make a 240 KB error.
package quote
