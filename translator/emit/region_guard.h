// Guarded regions: exact f32 arithmetic at the device's speed where the device is IEEE's for normal values
// (HAZARDS.md #5, issue "Exact and fast"; docs/DEVICE_FACTS.md P2G_F32_FAST).
//
// Each exact f32 add/sub/mul/fma.rn (p2g_fadd, p2g_fsub, p2g_fmul, p2g_ffma) guards itself: subnormal operands,
// tiny results and NaN take an integer slow path. On NVIDIA that guard costs about ten instructions per operation
// and inlines the slow path at every call. A guarded region replaces those per-operation guards in a straight run
// of pure statements by one test for the whole run:
//
//     <the statements, the guarded calls in their short form: p2g_fmulc(a, b), p2g_ffmac(a, b, c), ...>
//     if (p2g_redo()) p2g_check_3(<the values the run read and wrote>);
//
// Where the device fact P2G_F32_FAST holds, the short forms (p2g_faddc, p2g_fmulc ...) return the device's
// result. A value that enters the run from outside it, or that a statement of the run sets other than by a
// guarded call, is tested at its first use after (p2g_in: its magnitude joins p2g_u, the smallest nonzero
// magnitude, an integer min: zeros wrap to the top, NaN sorts above every number), not again until it is set
// anew. Results are not tested: each has a grid, g such that its exact value is a multiple of 2^-g
// (Region::gridOf, gridPolicy): a tested value 63, a literal its own (bitsGrid), a sum the finer of its
// operands', a product the sum of theirs, an fma both. A factor finer than 2^-63 is tested where the two factors'
// grids add up to more than 126 (its grid is then 63), so every exact result stays a multiple of 2^-126.
// setp.f32 (p2g_fcmp on the bits) inside the run becomes the device's compares (p2g_fcmpd), its operands tested the
// same way (a literal only when subnormal): where the run's test passes, no value of the device's pass is
// subnormal, and the device orders every other value as IEEE does; the replay compares the bits.
// A second accumulator, p2g_w (a float min per operation), keeps the smallest magnitude of every result, zeros
// included: if it is above 2^-126 and p2g_u shows no nonzero tested value below 2^-126, no value was tiny or
// subnormal and no result zero, so the device flushed nothing and each operation was IEEE's (the fact); this way
// needs no grid. (An entering zero needs no test here: a flushing device reads a zero as IEEE does, only
// subnormal operands differently. The entering values left p2g_w on 2026-12-06: one float min less per entering
// value, bench/smem_barrier exact 4.90 -> 4.61 ms on an H100.)
// p2g_redo() runs the check only when both ways fail (tests/regions/first_pass_model.cpp checks the decision on a
// model of a flushing device against IEEE arithmetic).
// If that smallest nonzero magnitude is 2^-40 or more, every result is IEEE's. The proof: a nonzero f32 of
// magnitude >= 2^-40 is a multiple of its ulp, 2^-63 or coarser, so every tested value is a multiple of 2^-63,
// and a literal one of its bitsGrid (0, infinite or >= 2^-40: plainBits). By induction over the run every value an
// operation reads is a multiple of 2^-g for its grid g <= 126, and so is every exact result: a sum is a multiple
// of the finer step, a product of the product of the steps, which gridPolicy keeps at 2^-126 or coarser by
// testing factors. A nonzero multiple of 2^-126 is normal, so no exact result lay strictly between 0 and 2^-126
// and no operand was subnormal: the device, IEEE's wherever no operand is subnormal and the result is normal,
// infinite or an exact zero (the fact), gave IEEE's result, and that rounded result is a multiple of 2^-g again
// (a float rounded from a multiple of 2^-g of magnitude >= 2^-126 is either a multiple of its ulp, itself a
// multiple of 2^-g, or that exact value). tests/regions/first_pass_model.cpp checks the policy on a model of a
// flushing device. (Until 2026-12-08 every result finer than 2^-63 was tested: K's device pass had 922 integer
// mins, 661 since.)
// Zeros, exact or not, need no test of their own: a flushed result needs a nonzero operand below 2^-40. NaN needs no replay: the device's NaN results are
// PTX's 0x7FFFFFFF. Otherwise p2g_check_3 runs the device's pass again with the precise forms (p2g_fmulz,
// p2g_inz ...: a result below 2^-126 is tiny unless it is the exact zero of opposite operands or a zero factor)
// and writes the same results; only if a result is still tiny (p2g_redoz) does it call p2g_exact_3, the run's
// statements with the exact helpers, from the values the run started with (saved before it, restored for the
// call; with values to restore the check returns its verdict to main() instead). History, measured on the H200
// (docs/GPU_BENCH.md): counting every zero as tiny replayed 2.30 % of K's region executions on its 720p inputs;
// a compare and a select per operation to tell exact zeros (3ea4b77) cost bench/f32_heavy 4.17 -> 9.71 ms; a
// second pass with those selects, run where the first found a tiny or zero result (5028ced), gave f32_heavy back
// (4.01 ms) but cost K 7.55 -> 11.73 ms, since a zero in one lane ran the check for its whole warp. The 2^-40
// bound costs f32_heavy in turn (H100, 2026-12-06): its finite lanes hold normal values below 2^-40, so its regions
// run the check pass: 9.93 ms, 8.86 with a float min at the same bound, 3.80 with the float min at 2^-126; with
// both ways (p2g_u and p2g_w, 2026-12-06) 6.28 ms, K exact unchanged (6.00 ms, 4/4 identical).
// Where the fact does not hold (lavapipe, unmeasured devices) p2g_redo() is always true: the device's results
// are computed and thrown away, the replay gives every value. The replays are functions above main(), so main()
// reads as before. Also measured on the H200 (bench/f32_heavy, whose values end NaN in most lanes): while NaN
// counted as "not normal" nearly every region replayed (53-64 ms whatever else was tried, no faster than one
// guard per operation); with NaN let through, 8.6 ms. The helpers a run calls (p2g_fmin/p2g_fmax, p2g_canon,
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
