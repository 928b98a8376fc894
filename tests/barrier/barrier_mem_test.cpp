// passes/barrier_mem: which CTA barriers order shared memory only (p2g_bar_sync_s), which do so where the pointer
// parameters name distinct buffers (p2g_bar_sync_p), and which keep buffer and image memory (p2g_bar_sync). The
// bytes on devices: the corpus cases with barriers (basic/reduce_*, scan_*, transpose_2d, bench/smem_barrier ...),
// against expected/ from NVIDIA.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "translate.h"

using namespace p2g;

namespace {

// A kernel with pointer parameters a and b (global), a surface s and a u32 n: `pre`, bar.sync 0, `post`.
// %rd1 = a + 4 * tid, %rd2 = b + 4 * tid (in their buffers), %r1 = tid.
std::string kernel(const std::string& pre, const std::string& post, const std::string& bar = "bar.sync 0;") {
  return ".version 8.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 s, .param .u32 n)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<12>;\n"
         "  .shared .align 4 .b32 t[64];\n"
         "  ld.param.u64 %rd5, [a];\n  ld.param.u64 %rd6, [b];\n  ld.param.u64 %rd7, [s];\n"
         "  ld.param.u32 %r2, [n];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
         "  cvta.to.global.u64 %rd8, %rd5;\n  cvta.to.global.u64 %rd9, %rd6;\n"
         "  add.s64 %rd1, %rd8, %rd3;\n  add.s64 %rd2, %rd9, %rd3;\n  mov.u32 %r3, t;\n  shl.b32 %r4, %r1, 2;\n"
         "  add.s32 %r5, %r3, %r4;\n" +
         pre + "  " + bar + "\n" + post + "  ret;\n}\n";
}

std::string mainOf(const std::string& text) {
  ptx::SourceManager sm;
  int buf = sm.add("bar.ptx", text);
  ptx::DiagEngine d(sm);
  TranslateOptions opt;
  opt.spirv = true;
  opt.threads = 1;
  std::vector<EntryResult> res;
  bool ok = translateBuffer(sm, buf, opt, d, res);
  INFO(d.formatAll());
  REQUIRE(ok);
  REQUIRE(res.size() == 1);
  size_t p = res[0].glsl.find("\nvoid main()");
  REQUIRE(p != std::string::npos);
  return res[0].glsl.substr(p);
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// Which barrier main() calls: "s", "p", "full", or "?" when not exactly one.
std::string barrierOf(const std::string& m) {
  int s = count(m, "p2g_bar_sync_s();"), p = count(m, "p2g_bar_sync_p();"), f = count(m, "p2g_bar_sync();");
  if (s + p + f != 1) return "?";
  return s ? "s" : p ? "p" : "full";
}

}  // namespace

TEST_CASE("shared memory alone: the barrier orders shared memory only") {
  std::string m = mainOf(kernel("  st.shared.u32 [%r5], %r1;\n", "  ld.shared.u32 %r6, [%r5+4];\n"
                                                                 "  st.global.u32 [%rd2], %r6;\n"));
  CHECK(barrierOf(m) == "s");
}

TEST_CASE("a read through a before, a write through b after: disjoint parameters decide") {
  std::string m = mainOf(kernel("  ld.global.f32 %f1, [%rd1];\n  st.shared.f32 [%r5], %f1;\n",
                                "  ld.shared.f32 %f2, [%r5+4];\n  st.global.f32 [%rd2], %f2;\n"));
  CHECK(barrierOf(m) == "p");
}

TEST_CASE("a write and a read through the same parameter across the barrier keep buffer memory") {
  CHECK(barrierOf(mainOf(kernel("  st.global.u32 [%rd1], %r1;\n", "  ld.global.u32 %r6, [%rd1+4];\n"
                                                                 "  st.global.u32 [%rd2], %r6;\n"))) == "full");
  // a read before and a write after through the same parameter (another thread's write must not reach the read)
  CHECK(barrierOf(mainOf(kernel("  ld.global.u32 %r6, [%rd1];\n  st.shared.u32 [%r5], %r6;\n",
                                "  st.global.u32 [%rd1+4], %r1;\n"))) == "full");
  // an integer parameter moves a pointer within its buffer: still the same parameter
  CHECK(barrierOf(mainOf(kernel("  mul.wide.u32 %rd10, %r2, 4;\n  add.s64 %rd11, %rd1, %rd10;\n"
                                "  st.global.u32 [%rd11], %r1;\n",
                                "  ld.global.u32 %r6, [%rd1];\n  st.shared.u32 [%r5], %r6;\n"))) == "full");
}

TEST_CASE("only reads on both sides: nothing to order") {
  CHECK(barrierOf(mainOf(kernel("  ld.global.u32 %r6, [%rd1];\n  st.shared.u32 [%r5], %r6;\n",
                                "  ld.global.u32 %r7, [%rd1+4];\n  st.shared.u32 [%r5+4], %r7;\n"))) == "s");
}

TEST_CASE("a pointer loaded from memory may point anywhere") {
  std::string m = mainOf(kernel("  ld.global.u64 %rd10, [%rd2];\n  st.global.u32 [%rd10], %r1;\n",
                                "  ld.global.u32 %r6, [%rd1];\n  st.shared.u32 [%r5], %r6;\n"));
  CHECK(barrierOf(m) == "full");
}

TEST_CASE("generic addresses count as buffer memory, a pointer without provenance as unknown") {
  CHECK(barrierOf(mainOf(kernel("  st.u32 [%rd1], %r1;\n", "  ld.global.u32 %r6, [%rd1+4];\n"
                                                          "  st.shared.u32 [%r5], %r6;\n"))) == "full");
  CHECK(barrierOf(mainOf(kernel("  cvt.u64.u32 %rd10, %r1;\n  st.global.u32 [%rd10], %r1;\n",
                                "  ld.global.u32 %r6, [%rd2];\n  st.shared.u32 [%r5], %r6;\n"))) == "full");
}

TEST_CASE("surface memory across the barrier keeps image memory") {
  CHECK(barrierOf(mainOf(kernel("  sust.b.1d.b32.trap [%rd7, {%r1}], {%r1};\n",
                                "  suld.b.1d.b32.trap {%r6}, [%rd7, {%r2}];\n  st.global.u32 [%rd2], %r6;\n"))) ==
        "full");
}

TEST_CASE("a barrier in a loop sees the loop's accesses on both sides") {
  std::string pre = "  mov.u32 %r6, 0;\nL1:\n  st.global.u32 [%rd1], %r6;\n";
  std::string post = "  ld.global.u32 %r7, [%rd1+4];\n  add.u32 %r6, %r6, 1;\n  setp.lt.u32 %p1, %r6, %r2;\n"
                     "  @%p1 bra L1;\n";
  CHECK(barrierOf(mainOf(kernel(pre, post))) == "full");
  // a write through b in the loop is on both sides of the barrier too (the next iteration): it meets itself
  std::string pre2 = "  mov.u32 %r6, 0;\nL1:\n  st.global.u32 [%rd2], %r6;\n";
  CHECK(barrierOf(mainOf(kernel(pre2, post))) == "full");
  // reads through a in the loop, a write through b after it: only different parameters meet
  std::string pre3 = "  mov.u32 %r6, 0;\nL1:\n  ld.global.u32 %r7, [%rd1];\n  st.shared.u32 [%r5], %r7;\n";
  std::string post3 = "  add.u32 %r6, %r6, 1;\n  setp.lt.u32 %p1, %r6, %r2;\n  @%p1 bra L1;\n"
                      "  st.global.u32 [%rd2], %r6;\n";
  CHECK(barrierOf(mainOf(kernel(pre3, post3))) == "p");
}

TEST_CASE("bar.red keeps its full barriers") {
  std::string m = mainOf(kernel("  setp.ne.u32 %p2, %r1, 0;\n", "  selp.u32 %r6, 1, 0, %p3;\n"
                                                                "  st.global.u32 [%rd2], %r6;\n",
                                "bar.red.and.pred %p3, 0, %p2;"));
  CHECK(count(m, "p2g_bar_red(") == 1);
  CHECK(count(m, "p2g_bar_sync_s();") + count(m, "p2g_bar_sync_p();") == 0);
}

TEST_CASE("barriers without .aligned are judged together: threads may wait at different ones") {
  // a thread of the first branch writes through a and waits at its barrier; one of the second waits at the other
  // and reads through a: with barrier.sync (not aligned) the two barriers are one phase
  auto twoBranches = [](const std::string& bar) {
    return ".version 8.0\n.target sm_90\n.address_size 64\n"
           ".visible .entry k(.param .u64 a)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
           "  ld.param.u64 %rd1, [a];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
           "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra W;\n  " + bar + "\n  ld.global.u32 %r2, [%rd2];\n"
           "  st.global.u32 [%rd2+4], %r2;\n  ret;\nW:\n  st.global.u32 [%rd2], %r1;\n  " + bar + "\n  ret;\n}\n";
  };
  std::string m = mainOf(twoBranches("barrier.sync 0;"));
  CHECK(count(m, "p2g_bar_sync();") == 2);
  CHECK(count(m, "p2g_bar_sync_s();") + count(m, "p2g_bar_sync_p();") == 0);
  // the aligned form: every thread of the CTA executes the same barrier instruction (PTX ISA "barrier"), so each is
  // judged alone (here the write's barrier has nothing after it, the read's nothing before it)
  std::string a = mainOf(twoBranches("barrier.sync.aligned 0;"));
  CHECK(count(a, "p2g_bar_sync_s();") == 2);
}
