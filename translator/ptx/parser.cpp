// Module, function, statement and instruction parsing. See parser_impl.h for the grammar notes.
#include <cstring>
#include <unordered_set>

#include "parser_impl.h"

namespace ptx {

namespace {

std::string_view trim(const char* b, const char* e) {
  while (b < e && (*b == ' ' || *b == '\t' || *b == '\r' || *b == '\n')) ++b;
  while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) --e;
  return {b, size_t(e - b)};
}

std::string_view dirName(const Token& t) { return t.text().substr(1); }  // ".reg" -> "reg"

Span spanFrom(const char* b, const char* e) { return {b, uint32_t(e - b)}; }

}  // namespace

Space spaceFromName(std::string_view n) {
  if (n == "reg") return Space::Reg;
  if (n == "param") return Space::Param;
  if (n == "shared") return Space::Shared;
  if (n == "global") return Space::Global;
  if (n == "local") return Space::Local;
  if (n == "const") return Space::Const;
  if (n == "tex") return Space::Tex;
  if (n == "sreg") return Space::SReg;
  return Space::None;
}

Parser::Parser(const SourceManager& sm, int buf, DiagEngine& d, Module& m, const ParseOptions& opt,
               const char* start)
    : lx_(start ? start : sm.text(buf).data(), sm.text(buf).data() + sm.text(buf).size(), d),
      sm_(sm),
      diags_(d),
      m_(m),
      opt_(opt),
      bufBegin_(sm.text(buf).data()) {
  m_.buffer = buf;
}

// ---------------------------------------------------------------------------------------------------------------
// Diagnostics and recovery

void Parser::errorHere(const std::string& msg) {
  if (at(Tok::Error)) return;  // the lexer already said what is wrong with this token
  diags_.error(tok_.span(), msg);
}

void Parser::expected(const char* what) {
  if (at(Tok::Eof)) return errorHere(std::string("expected ") + what + ", found end of file");
  std::string found = at(Tok::Ident) || at(Tok::Dir) || at(Tok::Int) || at(Tok::Float)
                          ? "'" + clip(tok_.text()) + "'"
                          : std::string(tokName(tok_.kind));
  errorHere(std::string("expected ") + what + ", found " + found);
}

bool Parser::expect(Tok k, const char* what) {
  if (at(k)) {
    advance();
    return true;
  }
  expected(what);
  return false;
}

void Parser::recover() {
  unsigned depth = 0;
  for (;;) {
    switch (tok_.kind) {
      case Tok::Eof: return;
      case Tok::Semi:
        if (depth == 0) return advance();
        break;
      case Tok::LBrace: ++depth; break;
      case Tok::RBrace:
        if (depth == 0) return;  // the enclosing block closes here
        --depth;
        break;
      default: break;
    }
    advance();
  }
}

// .loc, .file: the statement is the rest of the line.
Directive Parser::lineDirective(std::string_view name, Span where) {
  const char* b = lx_.pos();
  lx_.skipLine();
  Directive d{name, trim(b, lx_.pos()), where, {}};
  advance();
  return d;
}

// .pragma, .branchtargets, .callprototype, .alias...: the statement runs to ';'.
Directive Parser::semiDirective(std::string_view name, Span where, bool collectArgs) {
  const char* b = lx_.pos();
  const char* e = b;
  Directive d{name, {}, where, {}};
  advance();
  while (!at(Tok::Semi) && !at(Tok::Eof) && !at(Tok::RBrace) && !at(Tok::LBrace)) {
    if (collectArgs && (at(Tok::Ident) || at(Tok::Int) || at(Tok::Float))) d.args.push_back(tok_.text());
    if (collectArgs && at(Tok::String)) d.args.push_back(tok_.text().substr(1, tok_.len - 2));
    e = tok_.p + tok_.len;
    advance();
  }
  d.text = trim(b, e);
  if (!at(Tok::Semi)) {
    expected("';' after directive");
    recover();
  } else {
    advance();
  }
  return d;
}

// ---------------------------------------------------------------------------------------------------------------
// Module

void Parser::run() {
  advance();
  m_.functions.reserve(16);
  while (!at(Tok::Eof) && !stopped()) {
    switch (tok_.kind) {
      case Tok::Dir: parseModuleDirective(); break;
      case Tok::Semi: advance(); break;
      case Tok::Error: advance(); break;
      case Tok::RBrace:
        errorHere("unmatched '}' at module scope");
        advance();
        break;
      default:
        expected("a directive at module scope");
        recover();
        if (at(Tok::RBrace)) advance();
        break;
    }
  }
  if (m_.version.empty() && !stopped()) diags_.error({bufBegin_, 0}, "missing .version directive");
  if (!stopped()) checkInitSymbols();
}

// A symbol in an initializer must name a variable or function of the module. The lifter checks what it can use
// (an address of a .global variable, in a .const variable) when a kernel refers to the variable; this check also
// covers the variables no kernel refers to, which would otherwise be accepted whatever they name.
void Parser::checkInitSymbols() {
  std::unordered_set<std::string_view> names;
  for (auto& g : m_.globals) names.insert(g.name);
  for (auto& f : m_.functions) names.insert(f.name);
  for (auto& g : m_.globals)
    for (auto& e : g.init)
      if (e.isSymbol && !names.count(e.symbol))
        diags_.error(e.span, "'" + clip(e.symbol) + "' in the initializer of '" + clip(g.name) +
                                 "' is not a variable or function of the module");
}

void Parser::parseVersion() {
  advance();
  if ((at(Tok::Float) && tok_.isDouble) || at(Tok::Int)) {
    std::string_view v = tok_.text();
    size_t dot = v.find('.');
    if (dot != std::string_view::npos && dot > 0 && dot + 1 < v.size() && v.find_first_not_of("0123456789.") == v.npos) {
      m_.version = v;
      return advance();
    }
  }
  expected("a version number 'major.minor' after .version");
  if (!at(Tok::Eof)) {
    lx_.skipLine();
    advance();
  }
}

void Parser::parseTarget() {
  advance();
  for (;;) {
    if (!at(Tok::Ident)) {
      expected("a target name after .target");
      lx_.skipLine();
      return advance();
    }
    m_.target.push_back(tok_.text());
    advance();
    if (!at(Tok::Comma)) return;
    advance();
  }
}

void Parser::parseSection(Span at) {
  advance();
  // The name is a directive-like token (.debug_info) or an identifier; then a brace-enclosed body that can be
  // megabytes of .b8 lines, skipped by a byte scan instead of tokenizing it.
  std::string_view name;
  if (this->at(Tok::Dir) || this->at(Tok::Ident)) {
    name = tok_.text();
    advance();
  }
  if (!this->at(Tok::LBrace)) {
    expected("'{' after .section name");
    return recover();
  }
  const char* b = lx_.pos();
  if (!lx_.skipBalanced()) {
    diags_.error(tok_.span(), "unterminated .section body: missing '}'");
    return advance();
  }
  m_.directives.push_back({"section", name.empty() ? trim(b, lx_.pos() - 1) : name, at, {}});
  advance();
}

void Parser::parseModuleDirective() {
  Token d = tok_;
  std::string_view n = dirName(d);
  if (n == "version") return parseVersion();
  if (n == "target") return parseTarget();
  if (n == "address_size") {
    m_.addressSizeAt = d.span();
    advance();
    if (at(Tok::Int) && (tok_.val == 32 || tok_.val == 64)) {
      m_.addressSize = uint32_t(tok_.val);
      return advance();
    }
    expected("32 or 64 after .address_size");
    lx_.skipLine();
    return advance();
  }
  if (n == "file" || n == "loc") return m_.directives.push_back(lineDirective(n, d.span()));
  if (n == "section") return parseSection(d.span());
  if (n == "pragma" || n == "alias") return m_.directives.push_back(semiDirective(n, d.span(), true));

  // Linkage prefixes, then a function or a variable.
  bool vis = false, ext = false, weak = false, common = false;
  for (;;) {
    n = dirName(tok_);
    if (n == "visible") vis = true;
    else if (n == "extern") ext = true;
    else if (n == "weak") weak = true;
    else if (n == "common") common = true;
    else break;
    advance();
    if (!at(Tok::Dir)) {
      expected("'.entry', '.func' or a variable declaration after a linkage directive");
      return recover();
    }
  }
  if (n == "entry" || n == "func") return parseFunction(n == "entry", vis, ext, weak, tok_.span());
  Space sp = spaceFromName(n);
  if (sp != Space::None && sp != Space::Reg && sp != Space::SReg) {
    advance();
    VarDecl proto;
    proto.space = sp;
    proto.isVisible = vis, proto.isExtern = ext, proto.isWeak = weak, proto.isCommon = common;
    if (!parseDecl(sp, m_.globals, true, true, true, proto)) recover();
    return;
  }
  errorHere("unknown directive '" + clip(tok_.text()) + "'");
  advance();
  recover();
}

// ---------------------------------------------------------------------------------------------------------------
// Functions

bool Parser::parseUintList(uint32_t* out, unsigned max, std::string_view what) {
  for (unsigned i = 0;; ++i) {
    if (!at(Tok::Int) || i >= max || tok_.val > UINT32_MAX) {
      expected(i >= max ? "at most 3 values" : "an unsigned integer");
      return false;
    }
    out[i] = uint32_t(tok_.val);
    advance();
    if (!at(Tok::Comma)) return true;
    advance();
  }
}

// Performance-tuning directives between the parameter list and the body. They end without ';'.
bool Parser::parsePerfDirectives(Function& f) {
  uint32_t scratch[3];
  while (at(Tok::Dir)) {
    std::string_view n = dirName(tok_);
    if (n == "maxntid" || n == "reqntid") {
      advance();
      if (!parseUintList(n == "maxntid" ? f.maxntid : f.reqntid, 3, n)) return false;
    } else if (n == "minnctapersm" || n == "maxnctapersm" || n == "maxnreg" || n == "maxclusterrank") {
      advance();
      uint32_t* dst = n == "minnctapersm" ? &f.minnctapersm : n == "maxnreg" ? &f.maxnreg : scratch;
      if (!parseUintList(dst, 1, n)) return false;
    } else if (n == "reqnctapercluster") {
      advance();
      if (!parseUintList(scratch, 3, n)) return false;
    } else if (n == "noreturn") {
      f.noreturn = true;
      advance();
    } else if (n == "explicitcluster" || n == "blocksareclusters") {
      advance();
    } else if (n == "pragma") {
      semiDirective(n, tok_.span(), true);
    } else {
      errorHere("unknown directive '" + clip(tok_.text()) + "'");
      return false;
    }
  }
  return true;
}

// `( .param .u64 a, .param .align 8 .b8 s[24] )`: the '(' is the current token.
bool Parser::parseParamList(std::vector<VarDecl>& out, bool isEntry) {
  advance();
  if (at(Tok::RParen)) return advance(), true;
  for (;;) {
    Space sp = at(Tok::Dir) ? spaceFromName(dirName(tok_)) : Space::None;
    if (sp != Space::Param && !(sp == Space::Reg && !isEntry)) {
      expected(isEntry ? "'.param'" : "'.param' or '.reg'");
      return false;
    }
    advance();
    VarDecl proto;
    proto.space = sp;
    if (!parseDecl(sp, out, false, false, false, proto)) return false;
    if (at(Tok::RParen)) return advance(), true;
    if (!expect(Tok::Comma, "',' or ')' in parameter list")) return false;
  }
}

void Parser::parseFunction(bool isEntry, bool vis, bool ext, bool weak, Span at) {
  advance();
  Function& f = m_.functions.emplace_back();
  f.isEntry = isEntry, f.isVisible = vis, f.isExtern = ext, f.isWeak = weak;
  bool ok = true;
  if (!isEntry && this->at(Tok::LParen)) ok = parseParamList(f.rets, false);
  if (ok && this->at(Tok::Ident)) {
    f.name = tok_.text();
    f.span = tok_.span();
    advance();
  } else if (ok) {
    expected("a function name");
    ok = false;
  }
  if (ok && this->at(Tok::LParen)) ok = parseParamList(f.params, isEntry);
  if (ok) ok = parsePerfDirectives(f);
  if (ok && this->at(Tok::Semi)) return advance();  // a prototype
  if (ok && !this->at(Tok::LBrace)) {
    expected("'{' or ';' after the function header");
    ok = false;
  }
  if (!ok) {
    // Skip the rest of the header, and the body if there is one, so the next function parses cleanly.
    while (!this->at(Tok::Eof) && !this->at(Tok::Semi) && !this->at(Tok::LBrace)) advance();
    if (this->at(Tok::LBrace)) lx_.skipBalanced();
    advance();
    m_.functions.pop_back();  // a half-parsed header is not a function the lifter should see
    return;
  }
  f.hasBody = true;
  f.body.span = tok_.span();
  advance();
  f.body.stmts.reserve(64);
  parseBlock(f.body, 1, f);
  if (opt_.dropEntryBodies && f.isEntry) {
    // The last entry's statements are kept: its kernel needs no second parse (a file of one kernel, the usual
    // case, is parsed once). An earlier entry's are dropped once the next entry body has parsed.
    if (keptEntry_ >= 0) {
      Function& prev = m_.functions[size_t(keptEntry_)];
      prev.body.stmts = std::vector<Stmt>();  // freed (parseBody reads it again)
      prev.bodyDropped = true;
    }
    keptEntry_ = int(m_.functions.size()) - 1;
  }
}

void Parser::reparseBody(Function& f) {
  advance();  // the body's '{'
  if (!at(Tok::LBrace)) return expected("'{' (the function body)");
  advance();
  f.body.stmts.clear();
  f.body.stmts.reserve(64);
  parseBlock(f.body, 1, f);
  f.bodyDropped = false;
}

// ---------------------------------------------------------------------------------------------------------------
// Statements

// The opening '{' has been consumed. Returns after the matching '}' (or at EOF, with a diagnostic).
void Parser::parseBlock(Block& b, unsigned depth, const Function& f) {
  for (;;) {
    if (stopped()) return;
    switch (tok_.kind) {
      case Tok::Eof:
        diags_.error({lx_.end(), 0}, "unexpected end of file inside function '" + clip(f.name) + "'");
        diags_.note(f.span, "function '" + clip(f.name) + "' starts here");
        return;
      case Tok::RBrace: advance(); return;
      case Tok::LBrace: {
        if (depth + 1 > kMaxNesting) {
          diags_.error(tok_.span(), "blocks nested too deeply (limit " + std::to_string(kMaxNesting) + ")");
          if (!lx_.skipBalanced()) {
            advance();
            continue;  // EOF: reported on the next iteration
          }
          advance();
          break;
        }
        Block& inner = std::get<Block>(b.stmts.emplace_back(std::in_place_type<Block>));
        inner.span = tok_.span();
        advance();
        parseBlock(inner, depth + 1, f);
        break;
      }
      case Tok::Dir: parseBodyDirective(b); break;
      case Tok::At: {
        const char* begin = tok_.p;
        Guard g;
        advance();
        if (at(Tok::Bang)) g.neg = true, advance();
        if (!at(Tok::Ident)) {
          expected("a predicate register after '@'");
          recover();
          break;
        }
        g.reg = tok_.text();
        g.span = spanFrom(begin, tok_.p + tok_.len);
        advance();
        if (!at(Tok::Ident)) {
          expected("an instruction after the guard");
          recover();
          break;
        }
        Token op = tok_;
        advance();
        parseInstruction(b, op, &g, begin);
        break;
      }
      case Tok::Ident: {
        Token first = tok_;
        advance();
        if (at(Tok::Colon)) {
          b.stmts.emplace_back(std::in_place_type<Label>, Label{first.text(), first.span()});
          advance();
          break;
        }
        parseInstruction(b, first, nullptr, first.p);
        break;
      }
      case Tok::Semi: advance(); break;
      case Tok::Error: recover(); break;
      default:
        expected("an instruction, label or directive");
        recover();
        if (at(Tok::LBrace)) advance();  // recover stops before nothing but '}' and ';', never on '{' (safety)
        break;
    }
  }
}

void Parser::parseBodyDirective(Block& b) {
  Token d = tok_;
  std::string_view n = dirName(d);
  if (n == "loc") {
    if (!opt_.keepLoc) {
      lx_.skipLine();
      return advance();
    }
    b.stmts.emplace_back(std::in_place_type<Directive>, lineDirective(n, d.span()));
    return;
  }
  Space sp = spaceFromName(n);
  if (sp != Space::None && sp != Space::SReg) {
    advance();
    VarDecl proto;
    proto.space = sp;
    std::vector<VarDecl> decls;
    if (!parseDecl(sp, decls, true, sp != Space::Reg && sp != Space::Param, true, proto)) return recover();
    for (auto& v : decls) b.stmts.emplace_back(std::in_place_type<VarDecl>, std::move(v));
    return;
  }
  if (n == "pragma" || n == "branchtargets" || n == "calltargets") {
    b.stmts.emplace_back(std::in_place_type<Directive>, semiDirective(n, d.span(), true));
    return;
  }
  if (n == "callprototype") {
    b.stmts.emplace_back(std::in_place_type<Directive>, semiDirective(n, d.span(), false));
    return;
  }
  if (n == "file") {
    b.stmts.emplace_back(std::in_place_type<Directive>, lineDirective(n, d.span()));
    return;
  }
  errorHere("unknown directive '" + clip(d.text()) + "'");
  advance();
  recover();
}

// ---------------------------------------------------------------------------------------------------------------
// Instructions

void Parser::parseInstruction(Block& b, Token opTok, const Guard* g, const char* stmtBegin) {
  std::string_view text = opTok.text();
  if (text[0] == '$' || text[0] == '%') {
    if (text[0] == '$')
      diags_.error({opTok.p + opTok.len, 0}, "expected ':' after label '" + clip(text) + "'");
    else
      diags_.error(opTok.span(), "expected an instruction, found register '" + clip(text) + "'");
    return recover();
  }
  Instr& in = std::get<Instr>(b.stmts.emplace_back(std::in_place_type<Instr>));
  in.span = opTok.span();
  if (g) in.hasGuard = true, in.guard = *g;
  // Split `ld.global.nc.v4.f32` into the opcode and its modifiers, in order.
  size_t dot = text.find('.');
  in.opcode = text.substr(0, dot);
  if (dot != text.npos) {
    in.mods.reserve(6);
    while (dot != text.npos) {
      size_t nd = text.find('.', dot + 1);
      in.mods.push_back(text.substr(dot + 1, nd == text.npos ? text.npos : nd - dot - 1));
      dot = nd;
    }
  }
  if (!at(Tok::Semi)) {
    in.ops.reserve(4);
    for (;;) {
      Operand& op = in.ops.emplace_back();
      if (!parseOperand(op, false)) {
        b.stmts.pop_back();
        return recover();
      }
      if (at(Tok::Comma)) {
        advance();
        continue;
      }
      if (at(Tok::Pipe)) {
        op.pipe = true;
        advance();
        continue;
      }
      if (!at(Tok::Semi)) {
        if (!at(Tok::Error)) diags_.error({prevEnd_, 0}, "expected ';' after instruction");
        b.stmts.pop_back();
        return recover();
      }
      break;
    }
  }
  in.stmtSpan = spanFrom(stmtBegin, tok_.p + 1);
  advance();
}

bool Parser::parseOperandList(Operand& op, Tok close) {
  op.elems.reserve(4);
  if (at(close) && close == Tok::RParen) return advance(), true;  // `()`: an empty call argument list
  for (;;) {
    if (!parseOperand(op.elems.emplace_back(), close == Tok::RBrace)) return false;
    if (at(Tok::Comma)) {
      advance();
      continue;
    }
    if (at(close)) {
      op.span.length = uint32_t(tok_.p + 1 - op.span.begin);
      advance();
      return true;
    }
    expected(close == Tok::RBrace ? "',' or '}' in vector operand" : "',' or ')' in operand list");
    return false;
  }
}

// `[base]`, `[base+imm]`, `[base+-imm]`, `[base-imm]`, `[imm]`, and texture forms `[tex, {coords}]`.
bool Parser::parseAddress(Operand& op) {
  op.kind = Operand::Kind::Address;
  advance();
  if (at(Tok::Ident)) {
    op.name = tok_.text();
    advance();
    if (at(Tok::Plus) || at(Tok::Minus)) {
      bool neg = at(Tok::Minus);
      advance();
      if (at(Tok::Minus)) neg = !neg, advance();
      if (!at(Tok::Int)) {
        expected("an integer offset in address");
        return false;
      }
      op.imm = neg ? -int64_t(tok_.val) : int64_t(tok_.val);
      advance();
    }
  } else if (at(Tok::Int) || at(Tok::Minus)) {
    bool neg = at(Tok::Minus);
    if (neg) advance();
    if (!at(Tok::Int)) {
      expected("an address");
      return false;
    }
    op.imm = neg ? -int64_t(tok_.val) : int64_t(tok_.val);
    advance();
  } else {
    expected("a register, symbol or integer address");
    return false;
  }
  while (at(Tok::Comma)) {  // texture/surface coordinates
    advance();
    if (!parseOperand(op.elems.emplace_back(), false)) return false;
  }
  if (!at(Tok::RBrack)) {
    expected("']' to close the address");
    return false;
  }
  op.span.length = uint32_t(tok_.p + 1 - op.span.begin);
  advance();
  return true;
}

bool Parser::parseOperand(Operand& op, bool inVector) {
  // Lists, addresses and vectors nest through here: a bound keeps 100,000 `(` from exhausting the stack.
  if (operandDepth_ >= kMaxOperandNesting) {
    errorHere("operand nested too deeply (limit " + std::to_string(kMaxOperandNesting) + " levels of ( [ {)");
    return false;
  }
  struct Depth {
    unsigned& d;
    explicit Depth(unsigned& x) : d(x) { ++d; }
    ~Depth() { --d; }
  } depth(operandDepth_);
  op.span = tok_.span();
  if (at(Tok::Bang)) {
    op.neg = true;
    advance();
    if (!at(Tok::Ident)) {
      expected("a predicate after '!'");
      return false;
    }
  }
  bool minus = false;
  if (at(Tok::Minus)) {
    minus = true;
    advance();
  }
  switch (tok_.kind) {
    case Tok::Ident: {
      std::string_view n = tok_.text();
      op.kind = n[0] == '%' || n == "_" ? Operand::Kind::Reg : Operand::Kind::Symbol;
      op.name = n;
      op.minus = minus;
      break;
    }
    case Tok::Int:
      op.kind = Operand::Kind::Imm;
      // Negated as unsigned: nvcc writes -9223372036854775808, whose negation as int64_t overflows (UBSan).
      op.imm = int64_t(minus ? 0 - tok_.val : tok_.val);
      op.isUnsigned = tok_.isUnsigned;
      break;
    case Tok::Float:
      op.kind = Operand::Kind::FImm;
      op.isDouble = tok_.isDouble;
      op.fbits = tok_.val;
      if (minus) op.fbits ^= tok_.isDouble ? (1ull << 63) : (1ull << 31);
      break;
    case Tok::LBrack:
      if (minus || inVector) break;
      return parseAddress(op);
    case Tok::LBrace:
      if (minus || inVector) break;
      op.kind = Operand::Kind::Vector;
      advance();
      return parseOperandList(op, Tok::RBrace);
    case Tok::LParen:
      if (minus || inVector) break;
      op.kind = Operand::Kind::List;
      advance();
      return parseOperandList(op, Tok::RParen);
    default: break;
  }
  if (op.kind == Operand::Kind::Reg && op.name.empty()) {  // nothing matched
    expected(minus ? "a number or register after '-'" : "an operand");
    return false;
  }
  op.span.length = uint32_t(tok_.p + tok_.len - op.span.begin);
  advance();
  // `sym+8` as a plain operand (an address constant, e.g. `mov.u64 %rd1, table+8;`): the offset goes in `imm`.
  if (op.kind == Operand::Kind::Symbol && (at(Tok::Plus) || at(Tok::Minus))) {
    bool neg = at(Tok::Minus);
    advance();
    if (!at(Tok::Int)) {
      expected("an integer offset after the symbol");
      return false;
    }
    op.imm = neg ? -int64_t(tok_.val) : int64_t(tok_.val);
    op.span.length = uint32_t(tok_.p + tok_.len - op.span.begin);
    advance();
  }
  return true;
}

bool parseModule(const SourceManager& sm, int buf, DiagEngine& diags, Module& out, const ParseOptions& opt) {
  unsigned before = diags.errorCount();
  Parser p(sm, buf, diags, out, opt);
  p.run();
  return diags.errorCount() == before;
}

bool parseBody(const SourceManager& sm, int buf, DiagEngine& diags, Function& f, const ParseOptions& opt) {
  unsigned before = diags.errorCount();
  if (!f.hasBody || !f.body.span.begin) return true;
  Module scratch;  // a body adds nothing to the module
  ParseOptions o = opt;
  o.dropEntryBodies = false;
  Parser p(sm, buf, diags, scratch, o, f.body.span.begin);
  p.reparseBody(f);
  return diags.errorCount() == before;
}

}  // namespace ptx
