#include "form_histogram.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "emitter.h"
#include "forms.h"
#include "lift.h"
#include "parser.h"
#include "source.h"

namespace p2g {

namespace {

struct Row {
  size_t accepted = 0, refused = 0;
  size_t emittedBefore = 0, refusedBefore = 0, notTried = 0;
  std::string reason;  // the first refusal's message
};

std::string formText(const ptx::Instr& in) {
  std::string s(in.opcode);
  for (auto m : in.mods) s += "." + std::string(m);
  return s;
}

// What the handler alone did with a refused instruction: 'e' emitted it without an error (a warning counts as
// emitted), 'r' refused it, '-' not tried (no lifted form, or an operand count its handler does not guard).
char handlerAlone(const ptx::SourceManager& sm, const ptx::Instr& src, const ir::Inst* x, const ir::Function& f,
                  const FormResult& r) {
  if (!r.knownOpcode) return 'r';            // no line in the table: no handler either
  if (!x) return 'e';                        // branches and calls: the lifter read no modifier
  Handler h = findHandler(x->op);
  if (!h) return 'r';
  if (!operandCountInSomeForm(src, x->ops.size())) return '-';
  ptx::DiagEngine scratch(sm);
  scratch.setErrorLimit(0);
  Emitter em(f, sm, scratch, EmitOptions{});
  h(em, *x);
  return scratch.errorCount() ? 'r' : 'e';
}

}  // namespace

int formHistogramCommand(int argc, char** argv) {
  if (argc == 0) {
    fprintf(stderr, "ptx2glsl ops --histogram: no PTX file given\n");
    return 2;
  }
  std::map<std::string, Row> rows;
  size_t files = 0, unparsed = 0, instrs = 0;
  for (int i = 0; i < argc; ++i) {
    ptx::SourceManager sm;
    std::string err;
    int buf = sm.addFile(argv[i], err);
    if (buf < 0) {
      fprintf(stderr, "ptx2glsl ops: error: %s\n", err.c_str());
      return 1;
    }
    ++files;
    ptx::DiagEngine diags(sm);
    diags.setErrorLimit(0);
    ptx::Module mod;
    if (!ptx::parseModule(sm, buf, diags, mod)) {
      ++unparsed;
      fprintf(stderr, "%s: does not parse (%u errors), skipped\n", argv[i], diags.errorCount());
      continue;
    }
    LiftOptions opt;
    opt.inlineCalls = false;
    opt.onForm = [&](const ptx::Instr& src, const ir::Inst* x, const ir::Function& f, const FormResult& r) {
      ++instrs;
      Row& row = rows[formText(src)];
      if (r.ok) {
        ++row.accepted;
        return;
      }
      ++row.refused;
      if (row.reason.empty()) row.reason = r.message;
      char b = handlerAlone(sm, src, x, f, r);
      (b == 'e' ? row.emittedBefore : b == 'r' ? row.refusedBefore : row.notTried)++;
    };
    for (auto& fn : mod.functions) {
      if (!fn.hasBody) continue;
      ir::Function f;
      liftEntry(mod, fn, diags, f, opt);
    }
  }
  size_t acc = 0, ref = 0, silent = 0;
  auto print = [&](const char* title, auto pick) {
    bool first = true;
    for (auto& [form, row] : rows) {
      if (!pick(row)) continue;
      if (first) printf("\n## %s\n", title), first = false;
      printf("%7zu  %-48s", row.accepted + row.refused, form.c_str());
      if (row.refused) {
        printf("  %s", row.reason.c_str());
        if (row.emittedBefore) printf("  [handler alone: emitted %zu]", row.emittedBefore);
        if (row.notTried) printf("  [handler alone: not tried %zu]", row.notTried);
      }
      if (row.accepted && row.refused) printf("  (%zu accepted)", row.accepted);
      printf("\n");
    }
  };
  for (auto& [form, row] : rows) {
    acc += row.accepted;
    ref += row.refused;
    silent += row.emittedBefore;
  }
  printf("# %zu files (%zu did not parse), %zu instructions: %zu accepted, %zu refused, of which %zu were emitted "
         "by their handler alone (silently accepted before the form check)\n",
         files, unparsed, instrs, acc, ref, silent);
  print("refused; the handler alone emitted them (silently accepted before)", [](const Row& r) { return r.emittedBefore > 0; });
  print("refused; the handler alone refused them too (or was not tried)",
        [](const Row& r) { return r.refused > 0 && r.emittedBefore == 0; });
  print("accepted", [](const Row& r) { return r.refused == 0; });
  return 0;
}

}  // namespace p2g
