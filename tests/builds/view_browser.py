#!/usr/bin/env python3
"""`ptx2glsl view` pages in a real browser: headless Chromium (Debian's chromium package) loads the page of K and of
a few corpus kernels, made by the binary under test, and this script reads the DOM Chromium built, after the page's
script ran. A probe script, added to a copy of each page, records in the DOM:
- every statement of main() (a GLSL line ending in ';' after main's first `// N:` annotation) is linked: it has
  data-p, and each PTX line it names exists in the page;
- every PTX line marked as linked (class k) has at least one GLSL line that names it;
- clicking a linked GLSL line marks it and its PTX lines (class sel), clicking a PTX line marks its GLSL lines.
Then the page itself (not the copy) is opened at #pN, a PTX line: that line and its GLSL lines must be marked.
usage: view_browser.py PTX2GLSL REPO_ROOT [CHROMIUM]"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

exe, root = sys.argv[1], sys.argv[2]
chromium = sys.argv[3] if len(sys.argv) > 3 else (shutil.which("chromium") or shutil.which("chromium-browser"))
if not chromium:
    print("FAIL: no chromium on PATH (tests/install_deps.sh installs Debian's chromium package)")
    sys.exit(1)
tmp = tempfile.mkdtemp(prefix="p2g_browser_")
fails = []

PROBE = r"""
<script>
(function(){
var r={statements:0,unlinked:[],badRefs:0,ptxLinked:0,ptxOrphans:0,clickG:false,clickP:false};
var gl=Array.prototype.slice.call(document.querySelectorAll('#glsl .l'));
function text(e){return e.textContent.replace(/^\s*\d+/,'');}
var inMain=false,started=false,byP={};
gl.forEach(function(e){
  var t=text(e);
  if(/^void main\(\) \{/.test(t)){inMain=true;return;}
  if(e.dataset.p)e.dataset.p.split(' ').forEach(function(n){byP[n]=true;if(!document.getElementById('p'+n))r.badRefs++;});
  if(!inMain)return;
  if(/^\s*\/\/ ptx:\d+( |$)/.test(t)){started=true;return;}
  if(!started||/^\s*\/\//.test(t)||!/;\s*(\/\/.*)?$/.test(t))return;
  r.statements++;
  if(!e.dataset.p&&r.unlinked.length<20)r.unlinked.push(e.id+': '+t.trim().slice(0,80));
  else if(!e.dataset.p)r.unlinked.push('');
});
document.querySelectorAll('#ptx .l.k').forEach(function(e){r.ptxLinked++;if(!byP[e.id.slice(1)])r.ptxOrphans++;});
var g=gl.filter(function(e){return e.dataset.p;})[Math.floor(gl.length/3)%Math.max(1,gl.filter(function(e){return e.dataset.p;}).length)];
if(g){g.click();var ps=g.dataset.p.split(' ').map(function(n){return document.getElementById('p'+n);});
  r.clickG=g.classList.contains('sel')&&ps.every(function(p){return p&&p.classList.contains('sel');});}
var p=document.querySelector('#ptx .l.k');
if(p){p.click();var n=p.id.slice(1);
  var gs=gl.filter(function(e){return e.dataset.p&&e.dataset.p.split(' ').indexOf(n)>=0;});
  r.clickP=p.classList.contains('sel')&&gs.length>0&&gs.every(function(e){return e.classList.contains('sel');})&&
    !(g&&g.classList.contains('sel')&&gs.indexOf(g)<0);}
var o=document.createElement('pre');o.id='p2g-probe';o.textContent=JSON.stringify(r);document.body.appendChild(o);
})();
</script>
"""


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def dom(url):
    p = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout


cases = ["rrlite/k_output", "basic/reduce_sum_u32", "tex/tex2d_linear", "warp/syncwarp_divergent",
         "tensor/wmma_gemm_nvcc"]
for c in cases:
    ptx = os.path.join(root, "ptx_corpus", c, "kernel.ptx")
    if not os.path.exists(ptx):
        check(False, f"{c}: no kernel.ptx")
        continue
    out = os.path.join(tmp, c.replace("/", "_"))
    p = subprocess.run([exe, "view", ptx, "-o", out], capture_output=True, text=True)
    pages = sorted(f for f in os.listdir(out) if f.endswith(".html")) if p.returncode == 0 else []
    check(p.returncode == 0 and pages, f"{c}: view wrote a page ({p.stderr.strip()[:200]})")
    for page in pages:
        src = os.path.join(out, page)
        text = open(src, encoding="utf-8").read()
        probe = src[:-5] + ".probe.html"
        open(probe, "w", encoding="utf-8").write(text.replace("</body>", PROBE + "</body>"))
        rc, d = dom("file://" + probe)
        m = re.search(r'<pre id="p2g-probe">(.*?)</pre>', d, re.S)
        check(rc == 0 and m, f"{c}/{page}: Chromium ran the page and the probe (exit status {rc})")
        if not m:
            continue
        r = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                       .replace("&amp;", "&"))
        unl = [u for u in r["unlinked"] if u] + ([f"... {len(r['unlinked']) - 20} more"] if len(r["unlinked"]) > 20 else [])
        print(f"{c}/{page}: {r['statements']} statements of main(), {len(r['unlinked'])} not linked; "
              f"{r['ptxLinked']} linked PTX lines, {r['ptxOrphans']} without a GLSL line; links to missing PTX lines "
              f"{r['badRefs']}; click on GLSL {'ok' if r['clickG'] else 'FAILED'}, on PTX "
              f"{'ok' if r['clickP'] else 'FAILED'}")
        check(r["statements"] > 0, f"{c}/{page}: statements found")
        check(not r["unlinked"], f"{c}/{page}: statements not linked: {unl[:5]}")
        check(r["ptxOrphans"] == 0 and r["badRefs"] == 0, f"{c}/{page}: every link resolves")
        check(r["clickG"] and r["clickP"], f"{c}/{page}: clicks mark the partner lines")
        # the page as written, opened at a PTX line that has GLSL lines
        k = re.search(r'<span class="l k" id="p(\d+)"', text)
        if k:
            rc, d = dom("file://" + src + "#p" + k.group(1))
            sel_p = re.search(r'<span class="l k sel" id="p' + k.group(1) + '"', d) is not None
            sel_g = len(re.findall(r'<span class="l[^"]*\bsel" id="g\d+"', d))
            print(f"  opened at #p{k.group(1)}: PTX line marked {sel_p}, GLSL lines marked {sel_g}")
            check(rc == 0 and sel_p and sel_g > 0, f"{c}/{page}: #pN selects the line and its GLSL lines")
shutil.rmtree(tmp, ignore_errors=True)
print("view_browser:", "FAILED " + str(len(fails)) if fails else "all checks passed")
sys.exit(1 if fails else 0)
