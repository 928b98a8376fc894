// The build commands of ptx2glsl (docs/BUILDS.md): from binaries to translated kernels, reports and diffs.
// Each takes the arguments after its name and returns the process exit status.
#pragma once

namespace p2g::cli {

int cmdExtract(int argc, char** argv);     // extract FILE... -o DIR | --list
int cmdBatch(int argc, char** argv);       // batch INPUT... -o DIR [-j N]
int cmdCard(int argc, char** argv);        // card FILE.ptx [--entry NAME] [--json]
int cmdDiffBuild(int argc, char** argv);   // diff-build OLD NEW [-o DIR]
int cmdView(int argc, char** argv);        // view FILE.ptx -o DIR [--entry NAME] [--native]

}  // namespace p2g::cli
