// ptx2glsl view: one self-contained HTML page per entry, the PTX beside its GLSL. Every GLSL statement is linked
// to the PTX lines it was emitted for (the emitter's `// ptx:N  <ptx>` annotations: a run of them names the
// instructions that the statements after it implement, folded instructions included); clicking a line on either
// side marks its counterparts on the other and scrolls them into view. No external resources, no timestamps: the
// same input gives the same bytes.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli.h"
#include "files.h"
#include "exact_marks.h"
#include "translate.h"

namespace p2g::cli {
namespace {

const char* kViewHelp =
    "usage: ptx2glsl view FILE.ptx -o DIR [--entry NAME] [--native]\n"
    "  Writes DIR/<entry>.html for each .entry of FILE (or only NAME; from a binary's PTX entries\n"
    "  DIR/<ptx entry>.<entry>.html): the PTX and its GLSL side by side, each GLSL\n"
    "  statement linked to the PTX lines it implements (click a line to see its counterparts). The page is\n"
    "  self-contained (no scripts or styles from elsewhere). FILE may also be a CUDA binary holding PTX (as for\n"
    "  `ptx2glsl card`). Nothing is written unless every entry translates.\n"
    "  --native   the GLSL of native mode (translate --native)\n";

std::string esc(const std::string& s) {
  std::string o;
  o.reserve(s.size() + 16);
  for (unsigned char c : s) {
    if (c == '&') o += "&amp;";
    else if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '"') o += "&quot;";
    else if (c < 0x20 && c != '\t') o += "\\x" + std::string(1, "0123456789abcdef"[c >> 4]) + "0123456789abcdef"[c & 15];
    else o += char(c);
  }
  return o;
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> v;
  size_t at = 0;
  while (at <= s.size()) {
    size_t nl = s.find('\n', at);
    if (nl == std::string::npos) {
      if (at < s.size()) v.push_back(s.substr(at));
      break;
    }
    v.push_back(s.substr(at, nl - at));
    at = nl + 1;
  }
  return v;
}

// `// ptx:110  wmma.mma...` -> 110; 0 when the line is not an annotation.
unsigned annotationLine(const std::string& l) {
  size_t i = l.find_first_not_of(' ');
  if (i == std::string::npos || l.compare(i, 7, "// ptx:") != 0) return 0;
  i += 7;
  unsigned n = 0;
  size_t j = i;
  while (j < l.size() && j - i < 9 && l[j] >= '0' && l[j] <= '9') n = n * 10 + unsigned(l[j++] - '0');
  return j > i && (j == l.size() || l[j] == ' ') ? n : 0;
}

}  // namespace

// The page for one entry: `ptx` is the whole PTX text, `glsl` the entry's GLSL.
std::string viewPage(const std::string& title, const std::string& ptx, const std::string& glsl) {
  std::vector<std::string> P = splitLines(ptx), G = splitLines(glsl);
  std::vector<std::vector<unsigned>> gl(G.size());  // PTX lines of each GLSL line
  std::vector<unsigned> run, cur;
  std::vector<char> linked(P.size() + 1, 0);
  for (size_t i = 0; i < G.size(); ++i) {
    unsigned a = annotationLine(G[i]);
    if (a) {
      run.push_back(a);
      gl[i] = {a};
      continue;
    }
    if (!run.empty()) cur = run, run.clear();
    size_t k = G[i].find_first_not_of(' ');
    bool code = k != std::string::npos && G[i].compare(k, 2, "//") != 0 && G[i][k] != '}';
    if (code) gl[i] = cur;
    // a blank line ends the group (main() ends with its closing brace); a statement after a closing brace belongs
    // to the instruction whose statements came before it (a lowering with a loop or an if in it) until the next
    // annotation
    if (k == std::string::npos || (k == 0 && G[i] == "}")) cur.clear();
  }
  for (auto& v : gl)
    for (unsigned l : v)
      if (l <= P.size()) linked[l] = 1;
  std::string o;
  o.reserve(ptx.size() * 2 + glsl.size() * 2 + 4096);
  o += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ptx2glsl view: " + esc(title) +
       "</title>\n<style>\n"
       "body{margin:0;font:13px/1.35 monospace;background:#fafafa;color:#222}\n"
       "header{padding:6px 10px;background:#263238;color:#eee;font-family:sans-serif}\n"
       ".panes{display:flex;height:calc(100vh - 32px)}\n"
       ".pane{flex:1;overflow:auto;border-right:1px solid #ccc}\n"
       ".pane pre{margin:0}\n"
       ".pane h2{position:sticky;top:0;margin:0;padding:3px 8px;background:#eceff1;font:bold 12px sans-serif}\n"
       ".l{display:block;white-space:pre;padding-left:4.5em;text-indent:-4.5em;cursor:default}\n"
       ".l[data-p],.l.k{cursor:pointer}\n"
       ".n{display:inline-block;width:4em;color:#999;text-align:right;margin-right:.5em;text-indent:0}\n"
       ".c{color:#607d8b}\n"
       ".sel{background:#fff59d}\n"
       "</style></head><body>\n<header>" +
       esc(title) + " &mdash; PTX " + std::to_string(P.size()) + " lines, GLSL " + std::to_string(G.size()) +
       " lines; click a line to see its counterparts</header>\n<div class=\"panes\">\n<div class=\"pane\"><h2>PTX</h2><pre id=\"ptx\">";
  for (size_t i = 0; i < P.size(); ++i) {
    unsigned n = unsigned(i + 1);
    o += "<span class=\"l" + std::string(linked[n] ? " k" : "") + "\" id=\"p" + std::to_string(n) + "\"><span class=\"n\">" +
         std::to_string(n) + "</span>" + esc(P[i]) + "</span>";
  }
  o += "</pre></div>\n<div class=\"pane\"><h2>GLSL</h2><pre id=\"glsl\">";
  for (size_t i = 0; i < G.size(); ++i) {
    std::string attr;
    if (!gl[i].empty()) {
      attr = " data-p=\"";
      for (size_t j = 0; j < gl[i].size(); ++j) attr += (j ? " " : "") + std::to_string(gl[i][j]);
      attr += "\"";
    }
    bool comment = G[i].find_first_not_of(' ') != std::string::npos &&
                   G[i].compare(G[i].find_first_not_of(' '), 2, "//") == 0;
    o += "<span class=\"l" + std::string(comment ? " c" : "") + "\" id=\"g" + std::to_string(i + 1) + "\"" + attr +
         "><span class=\"n\">" + std::to_string(i + 1) + "</span>" + esc(G[i]) + "</span>";
  }
  o += "</pre></div>\n</div>\n<script>\n"
       "(function(){\n"
       "var byP={};\n"
       "document.querySelectorAll('#glsl .l[data-p]').forEach(function(g){g.dataset.p.split(' ').forEach(function(n){\n"
       "  (byP[n]=byP[n]||[]).push(g);});});\n"
       "var marked=[];\n"
       // the first marked line of each pane is scrolled to the middle of the pane, unless the click was in it
       "function mark(els,from){marked.forEach(function(e){e.classList.remove('sel');});marked=els;\n"
       "  els.forEach(function(e){e.classList.add('sel');});\n"
       "  ['p','g'].forEach(function(k){if(k===from)return;var f=els.filter(function(e){return e.id[0]===k;})[0];\n"
       "    if(f)f.scrollIntoView({block:'center'});});}\n"
       "document.getElementById('ptx').addEventListener('click',function(ev){var l=ev.target.closest('.l');if(!l)return;\n"
       "  var g=byP[l.id.slice(1)]||[];mark([l].concat(g),ev.isTrusted?'p':'');});\n"
       "document.getElementById('glsl').addEventListener('click',function(ev){var l=ev.target.closest('.l');\n"
       "  if(!l||!l.dataset.p)return;var p=l.dataset.p.split(' ').map(function(n){return document.getElementById('p'+n);})\n"
       "  .filter(Boolean);var g=[];p.forEach(function(x){g=g.concat(byP[x.id.slice(1)]||[]);});\n"
       "  mark(p.concat(g),ev.isTrusted?'g':'');});\n"
       // a page opened at #pN or #gN (a PTX or GLSL line number) starts with that line selected
       "function fromHash(){var l=location.hash&&document.getElementById(location.hash.slice(1));if(l)l.click();}\n"
       "window.addEventListener('hashchange',fromHash);\n"
       "if(document.readyState==='complete')fromHash();else window.addEventListener('load',fromHash);\n"
       "})();\n</script>\n</body></html>\n";
  return o;
}

int cmdView(int argc, char** argv) {
  std::string file, entry, outDir;
  bool native = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      fputs(kViewHelp, stdout);
      return 0;
    }
    if (a == "--entry" || a == "-o") {
      if (i + 1 >= argc || !argv[i + 1][0]) {
        fprintf(stderr, "ptx2glsl view: %s needs a value\n", a.c_str());
        return 2;
      }
      (a == "-o" ? outDir : entry) = argv[++i];
    } else if (a == "--native") native = true;
    else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl view: unknown option '%s'\n%s", a.c_str(), kViewHelp);
      return 2;
    } else if (file.empty()) file = a;
    else {
      fprintf(stderr, "ptx2glsl view: one input file expected, got '%s' too\n", a.c_str());
      return 2;
    }
  }
  if (file.empty() || outDir.empty()) {
    fprintf(stderr, "ptx2glsl view: %s\n%s", file.empty() ? "no input file" : "no output folder (-o DIR)", kViewHelp);
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> texts;
  std::string err;
  if (!ptxTexts(file, texts, err)) {
    fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  Staged out;
  bool failed = false, found = false;
  for (auto& [name, text] : texts) {
    ptx::SourceManager sm;
    int buf = sm.add(name, text);
    ptx::DiagEngine diags(sm);
    TranslateOptions opt;
    opt.entry = entry;
    opt.spirv = false;  // the page shows the GLSL; `translate` is where it is compiled and validated
    opt.emit.native = native;
    if (native)
      for (auto& o : nativeOmits()) opt.pipeline.disabled.push_back(o.pass);
    std::vector<EntryResult> res;
    bool ok = translateBuffer(sm, buf, opt, diags, res);
    fputs(diags.formatAll().c_str(), stderr);
    if (!ok) {
      failed = true;
      continue;
    }
    for (auto& r : res) {
      found = true;
      // a binary's PTX entries may hold kernels of the same name (one per architecture): prefix the entry's name
      std::string page = r.name + ".html";
      if (texts.size() > 1) page = name.substr(name.rfind('#') + 1) + "." + page;
      out.add(page, viewPage(r.name + " (" + name + ")", text, r.glsl));
    }
  }
  if (failed) {
    fprintf(stderr, "ptx2glsl view: nothing written\n");
    return 1;
  }
  if (!found) {
    fprintf(stderr, "ptx2glsl view: %s: %s\n", file.c_str(),
            entry.empty() ? "no .entry with a body" : ("no .entry named '" + entry + "'").c_str());
    return 1;
  }
  if (!out.commit(outDir, err)) {
    fprintf(stderr, "ptx2glsl view: %s\n", err.c_str());
    return 1;
  }
  for (auto& f : out.files()) printf("%s/%s\n", outDir.c_str(), f.first.c_str());
  return 0;
}

}  // namespace p2g::cli
