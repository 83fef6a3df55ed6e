// Package rootlink is what the root package batchlas shares with
// internal/opkit without exporting it: the context values behind
// batchlas.WithDevice and batchlas.WithParallelism, and the embedded
// tuned/ tables.
//
// It exists because of an import cycle: internal/opkit imports the root
// package (for Batch, ArgError, Host), so the root package cannot import
// opkit, and an exported root identifier would be part of the user's API.
// The root package and opkit both import this package, which imports no
// package of the module but select, so each value has one owner: the
// context keys are defined here and read by opkit, and the tables are
// embedded by the root package (go:embed reaches only files below a
// package's own directory) and handed here once, from its init.
//
// Ops, tools and tests use internal/opkit, not this package.
package rootlink

import (
	"context"
	"io/fs"

	sel "github.com/batchlas-go/batchlas/select"
)

// Background returns ctx, or context.Background() when ctx is nil: every
// entry point of batchlas and its ops treats a nil context as Background.
func Background(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

type deviceKey struct{}

// WithDevice is batchlas.WithDevice: ctx (nil is Background) carrying d.
func WithDevice(ctx context.Context, d *sel.Device) context.Context {
	return context.WithValue(Background(ctx), deviceKey{}, d)
}

// Device returns the device WithDevice set on ctx, or nil when none is set
// (or ctx is nil).
func Device(ctx context.Context) *sel.Device {
	if ctx == nil {
		return nil
	}
	d, _ := ctx.Value(deviceKey{}).(*sel.Device)
	return d
}

type parallelismKey struct{}

// WithParallelism is batchlas.WithParallelism: ctx (nil is Background)
// carrying the cap n, stored as max(n, 0).
func WithParallelism(ctx context.Context, n int) context.Context {
	return context.WithValue(Background(ctx), parallelismKey{}, max(n, 0))
}

// Parallelism returns the cap WithParallelism set on ctx: n >= 1, or 0 for
// no cap (none set, set to n <= 0, or a nil ctx).
func Parallelism(ctx context.Context) int {
	if ctx == nil {
		return 0
	}
	n, _ := ctx.Value(parallelismKey{}).(int)
	return n
}

// tables is the root package's embedded tuned/ directory.
var tables fs.FS

// SetTables records the root package's embedded tuned/ directory. The root
// package calls it once, from its init, before any package that imports
// the root package initialises.
func SetTables(fsys fs.FS) { tables = fsys }

// Tables returns what SetTables recorded.
func Tables() fs.FS { return tables }
