// Unit tests of the PTX front end: real nvcc output (data/*.ptx) and hand-written snippets for grammar corners
// nvcc output at -O3 does not show. Expected values come from the PTX text itself or from the CUDA ABI (param
// offsets), never from a reference run.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "layout.h"
#include "parser.h"

using namespace ptx;
using K = Operand::Kind;

namespace {

struct Parsed {
  SourceManager sm;
  std::unique_ptr<DiagEngine> diags;
  Module m;
  bool ok = false;
  std::string errors() const { return diags->formatAll(); }
};

std::unique_ptr<Parsed> parseText(std::string text, ParseOptions opt = {}) {
  auto p = std::make_unique<Parsed>();
  int buf = p->sm.add("test.ptx", std::move(text));
  p->diags = std::make_unique<DiagEngine>(p->sm);
  p->ok = parseModule(p->sm, buf, *p->diags, p->m, opt);
  return p;
}

std::unique_ptr<Parsed> parseData(const char* name) {
  std::ifstream f(std::string(P2G_PARSER_DATA) + "/" + name, std::ios::binary);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return parseText(ss.str());
}

// Wraps statements in a module and an entry named k.
std::string kernel(const std::string& body, const std::string& params = "") {
  return ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(" + params + ")\n{\n" + body + "\n}\n";
}

const Function* fn(const Module& m, std::string_view name) {
  for (auto& f : m.functions)
    if (f.name == name && f.hasBody) return &f;
  for (auto& f : m.functions)
    if (f.name == name) return &f;
  return nullptr;
}

// All instructions of a block, depth first, in source order.
void collect(const Block& b, std::vector<const Instr*>& out) {
  for (auto& s : b.stmts) {
    if (auto* i = std::get_if<Instr>(&s)) out.push_back(i);
    if (auto* bl = std::get_if<Block>(&s)) collect(*bl, out);
  }
}
std::vector<const Instr*> instrs(const Function& f) {
  std::vector<const Instr*> v;
  collect(f.body, v);
  return v;
}
const Instr* findOp(const Function& f, std::string_view opcode, size_t nth = 0) {
  for (auto* i : instrs(f))
    if (i->opcode == opcode && nth-- == 0) return i;
  return nullptr;
}
std::vector<const VarDecl*> decls(const Block& b) {
  std::vector<const VarDecl*> v;
  for (auto& s : b.stmts)
    if (auto* d = std::get_if<VarDecl>(&s)) v.push_back(d);
  return v;
}
const VarDecl* global(const Module& m, std::string_view name) {
  for (auto& g : m.globals)
    if (g.name == name) return &g;
  return nullptr;
}
std::vector<std::string_view> mods(std::initializer_list<std::string_view> l) { return l; }

uint32_t f32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t f64(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
TEST_CASE("nvcc vecadd: module header, params, ranges, guard, address operands") {
  auto p = parseData("vecadd.ptx");
  REQUIRE_MESSAGE(p->ok, p->errors());
  CHECK(p->m.version == "9.0");
  REQUIRE(p->m.target.size() == 1);
  CHECK(p->m.target[0] == "sm_90");
  CHECK(p->m.addressSize == 64);
  REQUIRE(p->m.functions.size() == 2);

  const Function* f = fn(p->m, "vecadd");
  REQUIRE(f);
  CHECK(f->isEntry);
  CHECK(f->isVisible);
  REQUIRE(f->params.size() == 4);
  CHECK(f->params[0].name == "vecadd_param_0");
  CHECK(f->params[0].type == "u64");
  CHECK(f->params[3].type == "u32");

  auto d = decls(f->body);
  REQUIRE(d.size() == 4);
  CHECK(d[0]->type == "pred");
  CHECK(d[0]->name == "%p");
  CHECK(d[0]->rangeCount == 2);
  CHECK(d[3]->type == "b64");
  CHECK(d[3]->rangeCount == 11);
  CHECK(d[3]->space == Space::Reg);

  const Instr* bra = findOp(*f, "bra");
  REQUIRE(bra);
  CHECK(bra->hasGuard);
  CHECK(bra->guard.reg == "%p1");
  CHECK_FALSE(bra->guard.neg);
  REQUIRE(bra->ops.size() == 1);
  CHECK(bra->ops[0].kind == K::Symbol);
  CHECK(bra->ops[0].name == "$L__BB0_2");

  const Instr* mov = findOp(*f, "mov");
  REQUIRE(mov);
  CHECK(mov->ops[1].kind == K::Reg);
  CHECK(mov->ops[1].name == "%ctaid.x");  // the special register keeps its component

  const Instr* ld = findOp(*f, "ld");
  REQUIRE(ld);
  CHECK(ld->mods == mods({"param", "u64"}));
  CHECK(ld->ops[1].kind == K::Address);
  CHECK(ld->ops[1].name == "vecadd_param_0");
  CHECK(ld->ops[1].imm == 0);

  // The label is a statement of its own, directly before `ret`.
  bool sawLabel = false;
  for (auto& s : f->body.stmts)
    if (auto* l = std::get_if<Label>(&s)) sawLabel = l->name == "$L__BB0_2";
  CHECK(sawLabel);
}

TEST_CASE("nvcc vecadd: .maxntid, ld.global.nc.v4.f32 and vector operands") {
  auto p = parseData("vecadd.ptx");
  REQUIRE(p->ok);
  const Function* f = fn(p->m, "scale4");
  REQUIRE(f);
  CHECK(f->maxntid[0] == 256);
  CHECK(f->maxntid[1] == 1);
  CHECK(f->maxntid[2] == 1);
  CHECK(f->reqntid[0] == 0);

  const Instr* ld = nullptr;
  for (auto* i : instrs(*f))
    if (i->opcode == "ld" && i->hasMod("nc")) ld = i;
  REQUIRE(ld);
  CHECK(ld->mods == mods({"global", "nc", "v4", "f32"}));
  REQUIRE(ld->ops.size() == 2);
  CHECK(ld->ops[0].kind == K::Vector);
  REQUIRE(ld->ops[0].elems.size() == 4);
  CHECK(ld->ops[0].elems[0].name == "%f2");
  CHECK(ld->ops[0].elems[3].name == "%f5");

  const Instr* st = findOp(*f, "st");
  REQUIRE(st);
  CHECK(st->mods == mods({"global", "v4", "f32"}));
  CHECK(st->ops[0].kind == K::Address);
  CHECK(st->ops[1].kind == K::Vector);
  CHECK(st->ops[1].elems.size() == 4);
}

TEST_CASE("nvcc struct parameter: .align 16 .b8 array and the CUDA parameter layout") {
  auto p = parseData("structparam.ptx");
  REQUIRE_MESSAGE(p->ok, p->errors());
  const Function* f = fn(p->m, "apply");
  REQUIRE(f);
  REQUIRE(f->params.size() == 4);
  const VarDecl& s = f->params[1];
  CHECK(s.type == "b8");
  CHECK(s.align == 16);
  REQUIRE(s.dims.size() == 1);
  CHECK(s.dims[0] == 64);  // sizeof(Params) with alignas(16)

  // char, Params (align 16), float*, short: CUDA places them at 0, 16, 80, 88.
  std::string err;
  auto layout = computeParamLayout(*f, &err);
  CHECK(err.empty());
  REQUIRE(layout.size() == 4);
  CHECK(layout[0].offset == 0);
  CHECK(layout[0].bytes == 1);
  CHECK(layout[1].offset == 16);
  CHECK(layout[1].bytes == 64);
  CHECK(layout[1].align == 16);
  CHECK(layout[1].isArray);
  CHECK(layout[2].offset == 80);
  CHECK(layout[2].bytes == 8);
  CHECK(layout[3].offset == 88);
  CHECK(layout[3].type == "u16");
  CHECK(paramBlockBytes(layout) == 90);
  CHECK(paramBlockBytes(*f) == 90);

  // The kernel reads the struct's fields at the offsets C++ gives them inside the struct.
  bool sawBias = false;
  for (auto* i : instrs(*f))
    if (i->opcode == "ld" && i->hasMod("v2") && i->ops[1].name == "apply_param_1" && i->ops[1].imm == 16) sawBias = true;
  CHECK(sawBias);
}

TEST_CASE("nvcc fp16 and mma: scoped inline-asm block, cvt.rn.f16x2.f32, mma modifiers") {
  auto p = parseData("fp16mma.ptx");
  REQUIRE_MESSAGE(p->ok, p->errors());
  const Function* pack = fn(p->m, "pack");
  REQUIRE(pack);
  const Block* scope = nullptr;
  for (auto& s : pack->body.stmts)
    if (auto* b = std::get_if<Block>(&s)) scope = b;
  REQUIRE(scope);
  REQUIRE(scope->stmts.size() == 1);
  const Instr* cvt = std::get_if<Instr>(&scope->stmts[0]);
  REQUIRE(cvt);
  CHECK(cvt->opcode == "cvt");
  CHECK(cvt->mods == mods({"rn", "f16x2", "f32"}));
  CHECK(cvt->ops.size() == 3);

  const Function* mma = fn(p->m, "mma16816");
  REQUIRE(mma);
  const Instr* m = findOp(*mma, "mma");
  REQUIRE(m);
  CHECK(m->mods == mods({"sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32"}));
  REQUIRE(m->ops.size() == 4);
  CHECK(m->ops[0].elems.size() == 4);
  CHECK(m->ops[2].elems.size() == 2);
  const Instr* movf = findOp(*mma, "mov");
  REQUIRE(movf);
  CHECK(movf->ops[1].kind == K::FImm);
  CHECK_FALSE(movf->ops[1].isDouble);
  CHECK(movf->ops[1].fbits == 0);
}

TEST_CASE("nvcc globals: initialiser bits, symbol addresses, calls, prototypes, shared") {
  auto p = parseData("globals.ptx");
  REQUIRE_MESSAGE(p->ok, p->errors());
  const Module& m = p->m;

  // kTable is emitted as bytes: the little-endian bytes of 1.0f, -2.5f, 0.1f, 3.0e10f.
  const VarDecl* kt = global(m, "kTable");
  REQUIRE(kt);
  CHECK(kt->space == Space::Const);
  CHECK(kt->isVisible);
  REQUIRE(kt->init.size() == 16);
  float vals[4] = {1.0f, -2.5f, 0.1f, 3.0e10f};
  for (int i = 0; i < 16; ++i) CHECK(kt->init[i].bits == ((f32(vals[i / 4]) >> (8 * (i % 4))) & 0xff));

  const VarDecl* gd = global(m, "gD");
  REQUIRE(gd);
  REQUIRE(gd->init.size() == 1);
  CHECK(gd->init[0].bits == f64(0.25));

  const VarDecl* ptrs = global(m, "gPtrs");
  REQUIRE(ptrs);
  REQUIRE(ptrs->init.size() == 2);
  CHECK(ptrs->init[0].isSymbol);
  CHECK(ptrs->init[0].generic);
  CHECK(ptrs->init[0].symbol == "gX");
  CHECK(ptrs->init[1].symbol == "gArr");
  CHECK(ptrs->init[1].offset == 4);
  const VarDecl* fns = global(m, "gFns");
  REQUIRE(fns);
  CHECK_FALSE(fns->init[0].generic);
  CHECK(fns->init[1].symbol == "_Z6thricei");

  const VarDecl* dyn = global(m, "dyn");
  REQUIRE(dyn);
  CHECK(dyn->isExtern);
  CHECK(dyn->space == Space::Shared);
  REQUIRE(dyn->dims.size() == 1);
  CHECK(dyn->dims[0] == 0);

  // Prototypes first, then the definitions.
  int protos = 0;
  for (auto& f : m.functions) protos += !f.hasBody;
  CHECK(protos == 2);
  const Function* tw = fn(m, "_Z5twicei");
  REQUIRE(tw);
  CHECK_FALSE(tw->isEntry);
  REQUIRE(tw->rets.size() == 1);
  CHECK(tw->rets[0].name == "func_retval0");

  const Function* k = fn(m, "useGlobals");
  REQUIRE(k);
  const Instr* c0 = findOp(*k, "call", 0);
  REQUIRE(c0);
  CHECK(c0->mods == mods({"uni"}));
  REQUIRE(c0->ops.size() == 3);
  CHECK(c0->ops[0].kind == K::List);
  CHECK(c0->ops[1].name == "_Z5twicei");
  CHECK(c0->ops[2].elems.size() == 1);
  const Instr* c1 = findOp(*k, "call", 1);
  REQUIRE(c1);
  REQUIRE(c1->ops.size() == 4);
  CHECK(c1->ops[1].kind == K::Reg);
  CHECK(c1->ops[3].name == "prototype_1");

  // The callseq blocks keep their own declarations; the demoted shared array is a body declaration.
  int blocks = 0;
  for (auto& s : k->body.stmts)
    if (auto* b = std::get_if<Block>(&s)) {
      ++blocks;
      auto d = decls(*b);
      REQUIRE(d.size() == 3);
      CHECK(d[0]->space == Space::Reg);
      CHECK(d[1]->space == Space::Param);
    }
  CHECK(blocks == 2);
  bool sawTile = false;
  for (auto* d : decls(k->body))
    if (d->space == Space::Shared && d->name == "_ZZ10useGlobalsE4tile") sawTile = d->dims[0] == 256 && d->align == 4;
  CHECK(sawTile);
  const Instr* lds = nullptr;
  for (auto* i : instrs(*k))
    if (i->opcode == "ld" && i->hasMod("s16")) lds = i;
  REQUIRE(lds);
  CHECK(lds->ops[1].name == "gShort");
  CHECK(lds->ops[1].imm == 2);
}

TEST_CASE("nvcc -G output: .loc skipped or kept, .section bodies skipped, .file recorded") {
  std::ifstream f(std::string(P2G_PARSER_DATA) + "/debuginfo.ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  auto skip = parseText(ss.str());
  REQUIRE_MESSAGE(skip->ok, skip->errors());
  auto keep = parseText(ss.str(), ParseOptions{true});
  REQUIRE(keep->ok);
  auto count = [](const Module& m, std::string_view name) {
    size_t n = 0;
    for (auto& fn : m.functions)
      for (auto& s : fn.body.stmts)
        if (auto* d = std::get_if<Directive>(&s)) n += d->name == name;
    return n;
  };
  CHECK(count(skip->m, "loc") == 0);
  size_t locLines = 0;
  for (size_t pos = 0; (pos = ss.str().find("\t.loc\t", pos)) != std::string::npos; ++pos) ++locLines;
  CHECK(locLines > 0);
  CHECK(count(keep->m, "loc") == locLines);
  size_t sections = 0, files = 0;
  for (auto& d : skip->m.directives) sections += d.name == "section", files += d.name == "file";
  CHECK(sections == 3);
  CHECK(files == 1);
  REQUIRE(skip->m.target.size() == 2);
  CHECK(skip->m.target[1] == "debug");
  // The instructions are the same either way.
  CHECK(instrs(skip->m.functions[0]).size() == instrs(keep->m.functions[0]).size());
}

// ---------------------------------------------------------------------------------------------------------------
TEST_CASE("snippet: declarations of every form") {
  auto p = parseText(
      ".version 8.5\n.target sm_80, texmode_independent\n.address_size 64\n"
      ".global .align 16 .b8 mat[2][3];\n"
      ".weak .global .u32 w1, w2;\n"
      ".common .global .u64 cm;\n"
      ".const .v4 .f32 cv;\n"
      ".global .attribute(.managed) .align 4 .u32 managed;\n"
      ".tex .u64 texA;\n"
      ".global .texref texB;\n"
      ".visible .func (.reg .b32 rv) f(.reg .b32 a, .param .b64 b) .noreturn;\n"
      ".visible .entry k(.param .u64 .ptr .global .align 16 p, .param .align 8 .b8 s[328], .param .u32 n)\n"
      ".reqntid 128, 2 .minnctapersm 4 .maxnreg 64\n"
      "{\n"
      "  .reg .f32 %fa, %fb;\n"
      "  .reg .v4 .f32 %v;\n"
      "  .reg .pred %p<3>;\n"
      "  .local .align 8 .b8 __local_depot0[64];\n"
      "  .shared .align 4 .f32 tile[16][17];\n"
      "  mov.f32 %fa, %v.x;\n"
      "  ret;\n"
      "}\n");
  REQUIRE_MESSAGE(p->ok, p->errors());
  const Module& m = p->m;
  CHECK(m.version == "8.5");
  REQUIRE(m.target.size() == 2);
  CHECK(m.target[1] == "texmode_independent");
  const VarDecl* mat = global(m, "mat");
  REQUIRE(mat);
  CHECK(mat->dims == std::vector<uint64_t>{2, 3});
  CHECK(mat->align == 16);
  REQUIRE(global(m, "w2"));
  CHECK(global(m, "w2")->isWeak);
  CHECK(global(m, "w2")->type == "u32");
  CHECK(global(m, "cm")->isCommon);
  CHECK(global(m, "cv")->vecWidth == 4);
  CHECK(global(m, "managed")->align == 4);
  CHECK(global(m, "texA")->space == Space::Tex);
  CHECK(global(m, "texB")->type == "texref");

  const Function* f = fn(m, "f");
  REQUIRE(f);
  CHECK_FALSE(f->hasBody);
  CHECK(f->noreturn);
  REQUIRE(f->rets.size() == 1);
  CHECK(f->rets[0].space == Space::Reg);
  REQUIRE(f->params.size() == 2);
  CHECK(f->params[0].space == Space::Reg);
  CHECK(f->params[1].space == Space::Param);

  const Function* k = fn(m, "k");
  REQUIRE(k);
  REQUIRE(k->params.size() == 3);
  CHECK(k->params[0].isPtr);
  CHECK(k->params[0].ptrSpace == Space::Global);
  CHECK(k->params[0].ptrAlign == 16);
  CHECK(k->params[0].align == 0);
  CHECK(k->params[1].align == 8);
  CHECK(k->params[1].dims == std::vector<uint64_t>{328});
  CHECK(k->reqntid[0] == 128);
  CHECK(k->reqntid[1] == 2);
  CHECK(k->reqntid[2] == 0);
  CHECK(k->minnctapersm == 4);
  CHECK(k->maxnreg == 64);

  auto layout = computeParamLayout(*k);
  REQUIRE(layout.size() == 3);
  CHECK(layout[0].isPtr);
  CHECK(layout[1].offset == 8);
  CHECK(layout[1].bytes == 328);
  CHECK(layout[2].offset == 336);
  CHECK(paramBlockBytes(layout) == 340);

  auto d = decls(k->body);
  REQUIRE(d.size() == 6);
  CHECK(d[0]->name == "%fa");
  CHECK(d[1]->name == "%fb");
  CHECK(d[1]->type == "f32");
  CHECK(d[2]->vecWidth == 4);
  CHECK(d[3]->rangeCount == 3);
  CHECK(d[4]->space == Space::Local);
  CHECK(d[5]->dims == std::vector<uint64_t>{16, 17});
  const Instr* mov = findOp(*k, "mov");
  REQUIRE(mov);
  CHECK(mov->ops[1].name == "%v.x");
}

TEST_CASE("snippet: initialiser conversion to element bits") {
  auto p = parseText(
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".global .u8 b[3] = {255, 128, -1};\n"
      ".global .s16 h[2] = {-2, 0xF345};\n"
      ".global .b32 raw = 0f3F800000;\n"
      ".global .f32 fl[5] = {0f3F800000, 1.5, 2, -0f3F800000, 0d3FF0000000000000};\n"
      ".global .f64 dl[3] = {0d4000000000000000, 0.5, 0f3F800000};\n"
      ".global .f16 hf[2] = {1.0, 65520.0};\n"
      ".global .bf16 bf = 1.0;\n"
      ".global .u32 grid[2][2] = {{1, 2}, {3, 4}};\n"
      ".global .u32 open[] = {5, 6, 7};\n"
      ".global .u64 addrs[3] = {grid, grid+8, generic(open)+4};\n");
  REQUIRE_MESSAGE(p->ok, p->errors());
  const Module& m = p->m;
  auto bits = [&](std::string_view n) {
    std::vector<uint64_t> v;
    for (auto& e : global(m, n)->init) v.push_back(e.bits);
    return v;
  };
  CHECK(bits("b") == std::vector<uint64_t>{255, 128, 255});
  CHECK(bits("h") == std::vector<uint64_t>{0xfffe, 0xf345});
  CHECK(bits("raw") == std::vector<uint64_t>{0x3f800000});
  CHECK(bits("fl") == std::vector<uint64_t>{0x3f800000, f32(1.5f), f32(2.0f), 0xbf800000, f32(1.0f)});
  CHECK(bits("dl") == std::vector<uint64_t>{f64(2.0), f64(0.5), f64(1.0)});
  CHECK(bits("hf") == std::vector<uint64_t>{0x3c00, 0x7c00});  // 65520 rounds to infinity in binary16
  CHECK(bits("bf") == std::vector<uint64_t>{0x3f80});
  CHECK(bits("grid") == std::vector<uint64_t>{1, 2, 3, 4});
  CHECK(global(m, "open")->dims == std::vector<uint64_t>{3});  // sized by its initializer
  const VarDecl* a = global(m, "addrs");
  REQUIRE(a->init.size() == 3);
  CHECK(a->init[1].symbol == "grid");
  CHECK(a->init[1].offset == 8);
  CHECK(a->init[2].generic);
  CHECK(a->init[2].offset == 4);
}

TEST_CASE("snippet: the most negative 64-bit immediate") {
  // nvcc writes it (tests/parse_stress/ptx/math_double.ptx); negating it as int64_t was undefined behaviour,
  // found by tests/fuzz/fuzz_ptx under UBSan (tests/sanitize.sh runs this test with -fsanitize=undefined).
  auto p = parseText(kernel("mov.b64 %rd1, -9223372036854775808;\n mov.b64 %rd1, -1;"));
  REQUIRE_MESSAGE(p->ok, p->errors());
  auto in = instrs(p->m.functions[0]);
  REQUIRE(in.size() == 2);
  CHECK(in[0]->ops[1].kind == K::Imm);
  CHECK(in[0]->ops[1].imm == INT64_MIN);
  CHECK(in[1]->ops[1].imm == -1);
}

TEST_CASE("snippet: initialisers that do not fit their element are errors, each at its value") {
  auto p = parseText(
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".global .u8 b[3] = {255, 256, -129};\n"
      ".global .s16 h[2] = {-32768, 0x12345};\n"
      ".global .b16 w = 0f3F800000;\n"
      ".global .s64 q = -0x8000000000000001;\n");
  CHECK_FALSE(p->ok);
  std::string e = p->errors();
  CHECK(e.find("4:26: error: initializer 256 does not fit the type '.u8'") != std::string::npos);
  CHECK(e.find("4:31: error: initializer -129 does not fit the type '.u8'") != std::string::npos);
  CHECK(e.find("5:30: error: initializer 0x12345 does not fit the type '.s16'") != std::string::npos);
  CHECK(e.find("6:18: error: bit pattern '0f3F800000' has 32 bits; the type '.b16' has 16") != std::string::npos);
  CHECK(e.find("7:18: error: initializer -0x8000000000000001 does not fit the type '.s64'") != std::string::npos);
  CHECK(e.find("unmatched") == std::string::npos);  // the rest of the line still parses
}

TEST_CASE("snippet: immediates") {
  auto p = parseText(kernel(
      "mov.u32 %r1, 42;\n mov.u32 %r1, 0x2A;\n mov.u32 %r1, 052;\n mov.u32 %r1, 0b101010;\n"
      "mov.u32 %r1, 42U;\n mov.s32 %r1, -42;\n mov.f32 %f1, 0F3F800000;\n mov.f64 %fd1, 0D3FF0000000000000;\n"
      "mov.f64 %fd1, 1.5e3;\n mov.s64 %rd1, 0xFFFFFFFFFFFFFFFF;\n mov.f32 %f1, -0f3F800000;"));
  REQUIRE_MESSAGE(p->ok, p->errors());
  auto in = instrs(p->m.functions[0]);
  REQUIRE(in.size() == 11);
  for (int i = 0; i < 5; ++i) {
    CHECK(in[i]->ops[1].kind == K::Imm);
    CHECK(in[i]->ops[1].imm == 42);
  }
  CHECK_FALSE(in[0]->ops[1].isUnsigned);
  CHECK(in[4]->ops[1].isUnsigned);
  CHECK(in[5]->ops[1].imm == -42);
  CHECK(in[6]->ops[1].kind == K::FImm);
  CHECK(in[6]->ops[1].fbits == 0x3f800000);
  CHECK(in[7]->ops[1].isDouble);
  CHECK(in[7]->ops[1].fbits == f64(1.0));
  CHECK(in[8]->ops[1].fbits == f64(1500.0));
  CHECK(in[9]->ops[1].imm == -1);
  CHECK(in[10]->ops[1].fbits == 0xbf800000);
}

TEST_CASE("snippet: operands, guards, modifiers with ::, calls, brx.idx") {
  auto p = parseText(kernel(
      "@!%p1 ld.global.L2::cache_hint.v2.u32 {%r1, _}, [%rd1+-8], %rd2;\n"
      "st.shared.u32 [sym+4], %r1;\n"
      "ld.u32 %r2, [100];\n"
      "ld.u32 %r2, [%rd1-16];\n"
      "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;\n"
      "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r3, %p1;\n"
      "mov.b32 {%rs1, %rs2}, %r1;\n"
      "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [texA, {%f5, %f6}];\n"
      "mov.u64 %rd1, table+8;\n"
      "call.uni f, ();\n"
      "call.uni;\n"
      "brx.idx %r1, $L_table;\n"
      "$L_table: .branchtargets $L_a, $L_b;\n"
      "$L_a:\n$L_b:\n"
      ".pragma \"nounroll\";\n"
      "/* block\n comment */ // line comment\n"
      "exit;"));
  REQUIRE_MESSAGE(p->ok, p->errors());
  const Function& f = p->m.functions[0];
  auto in = instrs(f);
  REQUIRE(in.size() == 13);
  CHECK(in[0]->hasGuard);
  CHECK(in[0]->guard.neg);
  CHECK(in[0]->guard.reg == "%p1");
  CHECK(in[0]->mods == mods({"global", "L2::cache_hint", "v2", "u32"}));
  CHECK(in[0]->ops[0].elems[1].name == "_");
  CHECK(in[0]->ops[0].elems[1].kind == K::Reg);
  CHECK(in[0]->ops[1].imm == -8);
  CHECK(in[0]->ops.size() == 3);
  CHECK(in[1]->ops[0].name == "sym");
  CHECK(in[1]->ops[0].imm == 4);
  CHECK(in[2]->ops[1].name.empty());
  CHECK(in[2]->ops[1].imm == 100);
  CHECK(in[3]->ops[1].imm == -16);
  REQUIRE(in[4]->ops.size() == 5);
  CHECK(in[4]->ops[0].pipe);
  CHECK(in[4]->ops[1].name == "%p2");
  CHECK(in[4]->ops[4].neg);
  CHECK(in[5]->opcode == "tcgen05");
  CHECK(in[5]->mods == mods({"mma", "cta_group::1", "kind::f16"}));
  CHECK(in[6]->ops[0].kind == K::Vector);
  CHECK(in[7]->ops[1].kind == K::Address);
  CHECK(in[7]->ops[1].name == "texA");
  REQUIRE(in[7]->ops[1].elems.size() == 1);
  CHECK(in[7]->ops[1].elems[0].kind == K::Vector);
  CHECK(in[8]->ops[1].kind == K::Symbol);
  CHECK(in[8]->ops[1].name == "table");
  CHECK(in[8]->ops[1].imm == 8);
  in.erase(in.begin() + 8);
  CHECK(in[8]->ops[1].kind == K::List);
  CHECK(in[8]->ops[1].elems.empty());
  CHECK(in[9]->ops.empty());
  CHECK(in[10]->opcode == "brx");
  const Directive* bt = nullptr;
  const Directive* pragma = nullptr;
  for (auto& s : f.body.stmts)
    if (auto* d = std::get_if<Directive>(&s)) (d->name == "branchtargets" ? bt : pragma) = d;
  REQUIRE(bt);
  CHECK(bt->args == std::vector<std::string_view>{"$L_a", "$L_b"});
  REQUIRE(pragma);
  CHECK(pragma->args == std::vector<std::string_view>{"nounroll"});
  CHECK(in[11]->opcode == "exit");
  // Spans point into the source: the statement span runs from the guard to the ';'.
  CHECK(std::string_view(in[0]->stmtSpan.begin, in[0]->stmtSpan.length).substr(0, 5) == "@!%p1");
  CHECK(std::string_view(in[0]->stmtSpan.begin, in[0]->stmtSpan.length).back() == ';');
  CHECK(std::string_view(in[0]->span.begin, in[0]->span.length) == "ld.global.L2::cache_hint.v2.u32");
}

TEST_CASE("snippet: nested scoped blocks with their own registers") {
  auto p = parseText(kernel(
      "{\n .reg .b16 %h<2>;\n { .reg .b32 t; mov.b32 t, 1; }\n cvt.rn.f16.f32 %h0, %f1;\n}\n{}\n"));
  REQUIRE_MESSAGE(p->ok, p->errors());
  const Block& body = p->m.functions[0].body;
  REQUIRE(body.stmts.size() == 2);
  const Block& outer = std::get<Block>(body.stmts[0]);
  REQUIRE(outer.stmts.size() == 3);
  CHECK(std::get<VarDecl>(outer.stmts[0]).rangeCount == 2);
  const Block& inner = std::get<Block>(outer.stmts[1]);
  REQUIRE(inner.stmts.size() == 2);
  CHECK(std::get<VarDecl>(inner.stmts[0]).name == "t");
  CHECK(std::get<Block>(body.stmts[1]).stmts.empty());
}

TEST_CASE("snippet: unknown instructions parse generically") {
  auto p = parseText(kernel("frobnicate.x.y::z.v8 %r1, [%rd1], {%r2, %r3}, 7;\nwgmma.fence.sync.aligned;"));
  REQUIRE_MESSAGE(p->ok, p->errors());
  auto in = instrs(p->m.functions[0]);
  REQUIRE(in.size() == 2);
  CHECK(in[0]->opcode == "frobnicate");
  CHECK(in[0]->mods == mods({"x", "y::z", "v8"}));
  CHECK(in[0]->ops.size() == 4);
  CHECK(in[1]->mods == mods({"fence", "sync", "aligned"}));
}

TEST_CASE("layout: natural alignment, .align, and errors") {
  auto p = parseText(
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".entry k(.param .u8 a, .param .f64 b, .param .align 4 .b8 c[3], .param .u16 d, .param .align 32 .u32 e)\n"
      "{ ret; }\n"
      ".entry u(.param .u32 a, .param .b8 x[])\n{ ret; }\n");
  REQUIRE_MESSAGE(p->ok, p->errors());
  auto l = computeParamLayout(p->m.functions[0]);
  REQUIRE(l.size() == 5);
  CHECK(l[1].offset == 8);
  CHECK(l[2].offset == 16);
  CHECK(l[2].align == 4);
  CHECK(l[3].offset == 20);
  CHECK(l[4].offset == 32);
  CHECK(l[4].align == 32);
  CHECK(paramBlockBytes(l) == 36);
  std::string err;
  auto bad = computeParamLayout(p->m.functions[1], &err);
  CHECK(bad.size() == 1);
  CHECK(err.find("unsized") != std::string::npos);
}

TEST_CASE("error recovery: later statements and functions still parse") {
  auto p = parseText(kernel("add.s32 %r1, %r2 %r3;\nmov.u32 %r1, 1;\nbogus.op ,;\nret;") +
                     ".entry k2() { ret; }\n");
  CHECK_FALSE(p->ok);
  CHECK(p->diags->errorCount() == 2);
  REQUIRE(p->m.functions.size() == 2);
  auto in = instrs(p->m.functions[0]);
  REQUIRE(in.size() == 2);
  CHECK(in[0]->opcode == "mov");
  CHECK(in[1]->opcode == "ret");
  CHECK(instrs(p->m.functions[1]).size() == 1);
}

TEST_CASE("dropEntryBodies: entry bodies but the last checked and not kept, parseBody gives the same statements back") {
  int entries = 0;
  for (const char* file : {"globals.ptx", "vecadd.ptx"}) {  // one entry; two
    auto full = parseData(file);
    REQUIRE_MESSAGE(full->ok, full->errors());
    std::ifstream f(std::string(P2G_PARSER_DATA) + "/" + file, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    ParseOptions opt;
    opt.dropEntryBodies = true;
    auto lazy = parseText(ss.str(), opt);
    REQUIRE_MESSAGE(lazy->ok, lazy->errors());
    REQUIRE(lazy->m.functions.size() == full->m.functions.size());
    size_t lastEntry = 0;  // the last entry with a body: kept, like .func bodies
    for (size_t i = 0; i < full->m.functions.size(); ++i)
      if (full->m.functions[i].isEntry && full->m.functions[i].hasBody) lastEntry = i;
    for (size_t i = 0; i < full->m.functions.size(); ++i) {
      const Function& a = full->m.functions[i];
      Function b = lazy->m.functions[i];
      CHECK(b.bodyDropped == (a.isEntry && a.hasBody && i != lastEntry));
      if (!b.bodyDropped) {
        CHECK(b.body.stmts.size() == a.body.stmts.size());  // .func bodies and the last entry's are kept
        continue;
      }
      ++entries;
      CHECK(b.body.stmts.empty());
      REQUIRE(parseBody(lazy->sm, 0, *lazy->diags, b));
      CHECK_FALSE(b.bodyDropped);
      auto x = instrs(a), y = instrs(b);
      REQUIRE(x.size() == y.size());
      for (size_t k = 0; k < x.size(); ++k) {
        CHECK(x[k]->opcode == y[k]->opcode);
        CHECK(x[k]->ops.size() == y[k]->ops.size());
        CHECK(x[k]->span.begin - full->sm.text(0).data() == y[k]->span.begin - lazy->sm.text(0).data());
      }
    }
  }
  CHECK(entries > 0);
  // A syntax error inside a body is still reported by the first parse.
  ParseOptions o2;
  o2.dropEntryBodies = true;
  auto bad = parseText(kernel("  add.s32 %r1, ;"), o2);
  CHECK_FALSE(bad->ok);
  CHECK(bad->errors().find("test.ptx:6:") != std::string::npos);
}
