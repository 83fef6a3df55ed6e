// Package cpuident names the CPU a tuned table was measured on.
//
// An identity is a microarchitecture name such as "zen5" or
// "sapphirerapids". Tables of measured kernel timings are filed under the
// identity of the CPU they were measured on (<op>.<level>.<identity>.txt),
// and a process looks up the table for the identity of the CPU it runs
// on. The identity only chooses which measurements to trust: it never
// decides whether a kernel may run (the instruction-set checks do that),
// so a wrong or unknown identity costs speed, never correctness.
//
// Name derives the identity from Facts by a pure function, so that facts
// recorded on real machines can be replayed in tests. It decides in three
// steps:
//
//  1. Vendor, family and model, looked up in a table of known models
//     (known.go). A match is kept only when the features and cache sizes
//     agree with it: each name has features it must have, features that
//     only a later generation has, and an L2 size range. Hypervisors
//     often present an old or generic model (QEMU's "Skylake-Server"
//     6/0x55, "qemu64" 0x0F/0x6B, or model 0) on a newer host, and a
//     model number alone would then name the host after a CPU it is not.
//  2. Features and cache geometry, when the model was distrusted, is not
//     in the table while the CPU looks virtualised, or was masked. Cloud
//     guests often see only a brand such as "Intel(R) Xeon(R) Processor"
//     or "AMD EPYC", but the features (AMX, AVX512-FP16, VP2INTERSECT) and
//     the L2 and L3 sizes still tell the generations apart. The checks go
//     newest first and conclude only when the facts are decisive, so that
//     a newer CPU is not named after an older one. An unknown model on a
//     CPU that does not look virtualised skips this step: its model number
//     is real, so it is a CPU newer than the table, and step 2 could only
//     name it after an older one.
//  3. Otherwise a name built from the facts: <vendor>-<isa>-l2-<n>k, for
//     example "intel-avx512-l2-2048k" or "amd-avx2-l2-512k", or
//     <vendor>-<isa> when the L2 size is not reported ("cpu-x86"). Two
//     machines with the same such name share the facts that matter most to
//     kernel choice, so a table measured on one still serves the other.
//
// Name never fails and always returns a name that Valid accepts. FromCPUID
// gathers the facts from github.com/klauspost/cpuid/v2.
package cpuident
