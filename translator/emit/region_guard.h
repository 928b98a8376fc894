// Guarded regions: exact f32 arithmetic at the device's speed where the device is IEEE's for normal values
// (HAZARDS.md #5, issue "Exact and fast"; docs/DEVICE_FACTS.md P2G_F32_FAST).
//
// Each exact f32 add/sub/mul/fma.rn (p2g_fadd, p2g_fsub, p2g_fmul, p2g_ffma) guards itself: subnormal operands,
// tiny results and NaN take an integer slow path. On NVIDIA that guard costs about ten instructions per operation
// and inlines the slow path at every call. A guarded region replaces those per-operation guards in a straight run
// of pure statements by one test for the whole run:
//
//     <the statements, the guarded calls in their short form: p2g_fmul(a, b), p2g_ffma(a, b, c), ...>
//     if (p2g_redo()) p2g_check_3(<the values the run read and wrote>);
//
// Where the device fact P2G_F32_FAST holds, the short forms return the device's result and keep the smallest
// |result| in p2g_m (one min per operation); a value that enters the run from outside it is tested for subnormal
// at its first use (p2g_in). A normal smallest |result| proves every result equal to IEEE's: the device flushed
// nothing and no subnormal went in. NaN needs no replay: the device's NaN results are PTX's 0x7FFFFFFF, and
// min(p2g_m, NaN) leaves p2g_m on NVIDIA. Otherwise p2g_exact_3, the run's statements with the exact helpers,
// computes the results again from the values the run started with (saved before it, restored for the call).
// Before it, p2g_check_3 runs the device's pass again with the zero-aware short forms (p2g_fmulz ...: a zero
// from opposite operands or a zero factor is exact on every device) and writes the same results; only if a result
// is still tiny does it call the replay (with values to restore it returns that verdict to main() instead).
// Zeros are common (K's 720p inputs: 2.30 % of region executions had one, 0.011 % a truly tiny result) and
// testing them in every operation doubled bench/f32_heavy (docs/GPU_BENCH.md), hence the second pass, which runs
// only where the first found a tiny or zero result.
// Where the fact does not hold (lavapipe, unmeasured devices) p2g_redo() is always true: the device's results
// are computed and thrown away, the replay gives every value. The replays are functions above main(), so main()
// reads as before. Measured on the H200 (docs/GPU_BENCH.md; bench/f32_heavy, whose values end NaN in most lanes):
// while NaN counted as "not normal" nearly every region replayed (53-64 ms whatever else was tried, no faster than
// one guard per operation); with NaN let through, 8.6 ms. The helpers a run calls (p2g_fmin/p2g_fmax, p2g_canon,
// p2g_in) select between plain variables, which glslang emits as OpSelect, not branches.
#pragma once
#include <functional>
#include <string>

namespace p2g {

// Guards the regions of main()'s body `body` (one statement or comment per line, after fold resolution, before
// declarations are placed) and appends their exact replays to `functions`. `typeOf(name)` gives a local of main()
// its GLSL type with qualifier ("precise float", "uint"), "-" for a name that needs no passing (a global), or ""
// when unknown (statements that declare a local give its type too). Returns how many regions it guarded.
int guardRegions(std::string& body, std::string& functions,
                 const std::function<std::string(const std::string&)>& typeOf);
// The first line of the replays' block in the GLSL (the helpers the replays call, the image helpers included,
// stand before it; Emitter::emit).
constexpr const char* kReplaysHeading = "\n// The exact replays of main()'s guarded regions";

}  // namespace p2g
