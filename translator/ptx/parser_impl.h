// Internal to the PTX front end: the recursive-descent parser shared by parser.cpp (module, functions,
// statements, instructions) and parser_decl.cpp (declarations, initializers, number conversion).
//
// Grammar notes that shape the code:
//  - one token of lookahead (`tok_`); a label is the only place that needs two (`name :`), handled by lexing
//    the token after an identifier before deciding between a label and an instruction;
//  - some directives end at the end of the line, not at ';' (.version .target .address_size .file .loc and the
//    performance directives), so they are consumed with Lexer::skipLine or by token count, never "to ';'";
//  - error recovery skips to the next ';' (consumed) or an unmatched '}' (left for the block to close), so one
//    bad statement costs one diagnostic and the rest of the function still parses;
//  - every loop consumes a token per iteration or returns: no input can hang the parser.
#pragma once
#include <string>

#include "lexer.h"
#include "parser.h"

namespace ptx {

constexpr unsigned kMaxNesting = 256;          // `{` blocks inside a function, and initializer braces
constexpr unsigned kMaxOperandNesting = 8;     // `(`, `[`, `{` inside one operand (PTX needs 2: [tex, {x, y}])
constexpr uint64_t kMaxRegRange = 1u << 24;    // %r<N>: N registers
constexpr uint64_t kMaxArrayBytes = 1ull << 40;  // a declaration's total size (product of dims x element size)

// Bytes of one element of a PTX type name without the dot ("b32" -> 4, "f16x2" -> 4, "pred" -> 1); 0 for an
// unknown name.
uint32_t typeBytes(std::string_view type);

class Parser {
 public:
  // `start`: where lexing begins (a function body's '{' for parseBody); the buffer's start when null.
  Parser(const SourceManager& sm, int buf, DiagEngine& d, Module& m, const ParseOptions& opt,
         const char* start = nullptr);
  void run();
  void reparseBody(Function& f);
  void checkInitSymbols();

 private:
  // --- tokens and recovery (parser.cpp)
  void advance() {
    prevEnd_ = tok_.p + tok_.len;
    tok_ = lx_.next();
  }
  bool at(Tok k) const { return tok_.kind == k; }
  bool stopped() const { return diags_.atLimit(); }
  // Reports `msg` at the current token unless the lexer already reported it (an Error token).
  void errorHere(const std::string& msg);
  // "expected X, found Y"
  void expected(const char* what);
  bool expect(Tok k, const char* what);
  void recover();
  Directive lineDirective(std::string_view name, Span where);
  Directive semiDirective(std::string_view name, Span where, bool collectArgs);

  // --- module and functions (parser.cpp)
  void parseModuleDirective();
  void parseVersion();
  void parseTarget();
  void parseSection(Span at);
  void parseFunction(bool isEntry, bool vis, bool ext, bool weak, Span at);
  bool parseParamList(std::vector<VarDecl>& out, bool isEntry);
  bool parsePerfDirectives(Function& f);
  bool parseUintList(uint32_t* out, unsigned max, std::string_view what);

  // --- statements and instructions (parser.cpp)
  void parseBlock(Block& b, unsigned depth, const Function& f);
  void parseBodyDirective(Block& b);
  void parseInstruction(Block& b, Token opcode, const Guard* g, const char* stmtBegin);
  bool parseOperand(Operand& op, bool inVector);
  bool parseAddress(Operand& op);
  bool parseOperandList(Operand& op, Tok close);

  // --- declarations (parser_decl.cpp)
  // After the state-space directive (already consumed). Parses attributes, one or more comma-separated names
  // (when `list`), ranges, dims, initializers (when `init`), and the ';' (when `semi`).
  bool parseDecl(Space space, std::vector<VarDecl>& out, bool list, bool init, bool semi, const VarDecl& proto);
  bool parseDeclAttrs(VarDecl& d);
  bool parseDeclName(VarDecl& d, bool allowRange);
  bool parseInitializer(VarDecl& d);
  bool parseInitList(VarDecl& d, unsigned depth);
  bool parseInitElem(VarDecl& d);
  bool numberToBits(const VarDecl& d, const Token& t, bool negative, uint64_t& bits, Span at = {});

  Lexer lx_;
  Token tok_;
  const SourceManager& sm_;
  DiagEngine& diags_;
  Module& m_;
  ParseOptions opt_;
  const char* bufBegin_;
  const char* prevEnd_ = nullptr;  // end of the last consumed token: where a missing ';' belongs
  unsigned operandDepth_ = 0;      // parseOperand recursion (nested lists, addresses, vectors)
  int keptEntry_ = -1;             // dropEntryBodies: the entry whose statements are kept (the last one so far)
};

Space spaceFromName(std::string_view dirName);  // ".reg" -> Reg; None when not a state space

}  // namespace ptx
