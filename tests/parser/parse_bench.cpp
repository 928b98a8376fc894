// Parse throughput benchmark and AST dumper for the PTX front end.
//
//   parse_bench FILE [REPEAT]   parse FILE REPEAT times (default 5); print the best MB/s and the peak RSS
//   parse_bench --dump FILE     print a one-line-per-statement summary of the AST (for eyeballing the parser)
//
// The target is >= 100 MB/s on one core (a 5 MB file in < 50 ms); gen_big_ptx.py makes a realistic input.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "parser.h"

namespace {

void dumpOperand(const ptx::Operand& o, std::string& s) {
  using K = ptx::Operand::Kind;
  if (o.neg) s += '!';
  switch (o.kind) {
    case K::Reg:
    case K::Symbol: s += o.name; break;
    case K::Imm: s += std::to_string(o.imm); break;
    case K::FImm: s += (o.isDouble ? "0d#" : "0f#") + std::to_string(o.fbits); break;
    case K::Address:
      s += "[" + std::string(o.name) + "+" + std::to_string(o.imm);
      for (auto& e : o.elems) s += ", ", dumpOperand(e, s);
      s += "]";
      break;
    case K::Vector:
    case K::List:
      s += o.kind == K::Vector ? "{" : "(";
      for (size_t i = 0; i < o.elems.size(); ++i) {
        if (i) s += ", ";
        dumpOperand(o.elems[i], s);
      }
      s += o.kind == K::Vector ? "}" : ")";
      break;
  }
  if (o.pipe) s += " |";
}

void dumpBlock(const ptx::Block& b, int indent) {
  std::string pad(size_t(indent) * 2, ' ');
  for (auto& st : b.stmts) {
    if (auto* in = std::get_if<ptx::Instr>(&st)) {
      std::string s = pad + (in->hasGuard ? std::string("@") + (in->guard.neg ? "!" : "") + std::string(in->guard.reg) + " " : "");
      s += in->opcode;
      for (auto m : in->mods) s += "|" + std::string(m);
      for (size_t i = 0; i < in->ops.size(); ++i) s += i ? ", " : " ", dumpOperand(in->ops[i], s);
      std::printf("%s\n", s.c_str());
    } else if (auto* l = std::get_if<ptx::Label>(&st)) {
      std::printf("%s%.*s:\n", pad.c_str(), int(l->name.size()), l->name.data());
    } else if (auto* v = std::get_if<ptx::VarDecl>(&st)) {
      std::printf("%sdecl .%.*s %.*s<%u> dims=%zu init=%zu\n", pad.c_str(), int(v->type.size()), v->type.data(),
                  int(v->name.size()), v->name.data(), v->rangeCount, v->dims.size(), v->init.size());
    } else if (auto* d = std::get_if<ptx::Directive>(&st)) {
      std::printf("%s.%.*s %.*s\n", pad.c_str(), int(d->name.size()), d->name.data(), int(d->text.size()), d->text.data());
    } else if (auto* bl = std::get_if<ptx::Block>(&st)) {
      std::printf("%s{\n", pad.c_str());
      dumpBlock(*bl, indent + 1);
      std::printf("%s}\n", pad.c_str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool dump = argc == 3 && std::string(argv[1]) == "--dump";
  if (argc < 2 || (argc == 3 && argv[1][0] == '-' && !dump)) {
    std::fprintf(stderr, "usage: parse_bench FILE [REPEAT] | parse_bench --dump FILE\n");
    return 2;
  }
  const char* path = dump ? argv[2] : argv[1];
  int repeat = !dump && argc >= 3 ? std::atoi(argv[2]) : 5;
  if (repeat < 1) repeat = 1;
  ptx::SourceManager sm;
  std::string err;
  int buf = sm.addFile(path, err);
  if (buf < 0) {
    std::fprintf(stderr, "parse_bench: %s\n", err.c_str());
    return 1;
  }
  double best = 1e30;
  size_t instrs = 0;
  bool ok = true;
  for (int i = 0; i < (dump ? 1 : repeat); ++i) {
    ptx::DiagEngine diags(sm);
    ptx::Module m;
    auto t0 = std::chrono::steady_clock::now();
    ok = ptx::parseModule(sm, buf, diags, m);
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    if (!ok) {
      std::fprintf(stderr, "%s", diags.formatAll().c_str());
      return 1;
    }
    instrs = 0;
    for (auto& f : m.functions) instrs += f.body.stmts.size();
    if (dump) {
      for (auto& f : m.functions) {
        std::printf("%s %.*s params=%zu rets=%zu\n", f.isEntry ? ".entry" : ".func", int(f.name.size()),
                    f.name.data(), f.params.size(), f.rets.size());
        dumpBlock(f.body, 1);
      }
    }
  }
  if (!dump) {
    double mb = double(sm.text(buf).size()) / 1e6;
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("%s: %.2f MB, %zu top-level statements, best of %d: %.1f ms = %.1f MB/s, peak RSS %.1f MB\n", path, mb,
                instrs, repeat, best * 1e3, mb / best, double(ru.ru_maxrss) / 1024.0);
  }
  return ok ? 0 : 1;
}
