#!/usr/bin/env python3
# Ports another branch's edits of the test files this round split up (tests/contract_test.ts,
# tests/write_edit_test.ts, tests/definitions_test.ts -> tests/contract/*, tests/unit/formats_test.ts)
# onto the split files, by a three-way merge per file:
#
#   python3 scripts/port_split_tests.py <base-ref> <branch-ref>     # e.g. 0f9d9db hints
#
# It splits both refs' versions of the old files the way the split was made (same chunking, same
# destinations), formats them like the repository, and runs `git merge-file` of
# (ours = the file in the work tree, base = split(base-ref), theirs = split(branch-ref)), so the
# branch's changes land on the moved tests; conflicts are left marked and listed. New helpers the
# branch added go where the tests using them go (tests/contract/_shared.ts when several files use
# them). Delete this script once every branch of the round is merged.

import collections, os, re, subprocess, sys, tempfile

ROOT = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
os.chdir(ROOT)
def parse_imports(text):
    """Return (imports: dict name->(module, spec_text, is_type, is_default), body_start_index)."""
    imports = {}
    for m in re.finditer(r'^import\s+(.*?)\s+from\s+"([^"]+)";\n', text, re.S | re.M):
        what, mod = m.group(1), m.group(2)
        if what.startswith("{"):
            for spec in what.strip("{} \n").split(","):
                spec = spec.strip()
                if not spec: continue
                is_type = spec.startswith("type ")
                s = spec[5:] if is_type else spec
                local = s.split(" as ")[-1].strip()
                imports[local] = (mod, spec, False)
        else:
            imports[what.strip()] = (mod, what.strip(), True)
    return imports

def split_chunks(lines):
    chunks, cur = [], []
    for i, line in enumerate(lines):
        starts = line and not line[0].isspace() and line[0] not in "})]" and (i == 0 or lines[i-1].strip() == "")
        if starts and cur:
            # attach: keep current chunk unless it's only blank lines
            chunks.append(cur); cur = []
        cur.append(line)
    if cur: chunks.append(cur)
    return ["\n".join(c).rstrip("\n") + "\n" for c in chunks]

def body_of(text):
    # body starts after the last top-level import statement
    last = 0
    for m in re.finditer(r'^import\s+.*?\s+from\s+"[^"]+";\n', text, re.S | re.M):
        last = m.end()
    return text[:last], text[last:]

def test_name(chunk):
    m = re.search(r'Deno\.test\(\s*(?:\{\s*name:\s*)?(["`])(.*?)\1', chunk, re.S)
    if m: return m.group(2)
    m = re.search(r'Deno\.test\(\{\s*name:\s*(\w+)', chunk)
    if m: return "@" + m.group(1)
    return None

def declared(chunk):
    m = re.match(r'(?:/\*\*.*?\*/\n)?(?:export\s+)?(?:async\s+)?(?:const|let|function|class|type|interface)\s+(\w+)', chunk, re.S)
    return m.group(1) if m else None

def uses(text, name):
    text = text.replace("...", "   ")
    return re.search(r'(?<![\w$.])' + re.escape(name) + r'(?![\w$])', text) is not None

def relmod(mod, src_dir, dst_dir):
    if mod.startswith("node:") or mod.startswith("npm:") or not mod.startswith("."):
        return mod
    absmod = os.path.normpath(os.path.join(src_dir, mod))
    r = os.path.relpath(absmod, dst_dir)
    return r if r.startswith(".") else "./" + r

def fix_urls(chunk, src_dir, dst_dir):
    def rep(m):
        return 'new URL("%s", import.meta.url)' % relmod(m.group(1), src_dir, dst_dir)
    return re.sub(r'new URL\("(\.[^"]+)", import\.meta\.url\)', rep, chunk)

def render_imports(needed, dst_dir):
    # needed: list of (local, (mod, spec, is_default), src_dir)
    by_mod = collections.OrderedDict()
    defaults = {}
    for local, (mod, spec, is_default), src_dir in needed:
        m = relmod(mod, src_dir, dst_dir)
        if is_default:
            defaults[m] = spec
        else:
            by_mod.setdefault(m, [])
            if spec not in by_mod[m]: by_mod[m].append(spec)
    out = []
    mods = list(dict.fromkeys(list(defaults) + list(by_mod)))
    mods.sort(key=lambda m: (0 if m.startswith("node:") else 1, m.count("../") * -1, m))
    for m in mods:
        if m in defaults:
            out.append('import %s from "%s";' % (defaults[m], m))
        if m in by_mod:
            specs = sorted(by_mod[m], key=lambda s: (s[5:] if s.startswith("type ") else s).lower())
            out.append('import { %s } from "%s";' % (", ".join(specs), m))
    return "\n".join(out) + "\n"

class Dest:
    def __init__(self, path, header):
        self.path, self.header = path, header
        self.helpers, self.tests = [], []   # (chunk_text, src_dir, imports)

def run(plan, dests, shared_path):
    """plan: list of (src, assign) where assign(test_name, section) -> dest key or None (drop section markers)."""
    all_helpers = []  # (name, chunk, src_dir, imports)
    for src, assign in plan:
        text = open(src).read()
        head, body = body_of(text)
        imports = parse_imports(head)
        src_dir = os.path.dirname(src)
        section = None
        for ch in split_chunks(body.lstrip("\n").split("\n")):
            if not ch.strip(): continue
            if ch.startswith("// ---"):
                section = ch.strip(); continue
            name = test_name(ch) if ch.lstrip().startswith("Deno.test") or "\nDeno.test" in ch and not declared(ch) else None
            if ch.startswith("Deno.test") or "\nDeno.test" in ch:
                name = test_name(ch)
                if name and name.startswith("@"):
                    m = re.search(r'const ' + name[1:] + r'\s*=\s*\n?\s*"(.*?)";', ch, re.S)
                    name = m.group(1)
                d = assign(name, section)
                dests[d].tests.append((ch, src_dir, imports))
            else:
                dn = declared(ch)
                assert dn, (src, ch[:200])
                all_helpers.append([dn, ch, src_dir, imports, section, src])
    # resolve @name test names and helper placement
    def users(h):
        res = set()
        for k, d in dests.items():
            for ch, _, _ in d.tests:
                if uses(ch, h[0]) and h[5] == _src_of[id(ch)] if False else uses(ch, h[0]):
                    res.add(k)
        return res
    _src_of = {}
    # helpers may use helpers: iterate to fixpoint
    placement = {}
    changed = True
    while changed:
        changed = False
        for h in all_helpers:
            us = set()
            for k, d in dests.items():
                for ch, _, _ in d.tests:
                    if uses(ch, h[0]): us.add(k)
            for h2 in all_helpers:
                if h2 is not h and h2[0] in placement and uses(h2[1], h[0]):
                    us |= placement[h2[0]]
            if placement.get(h[0]) != us:
                placement[h[0]] = us; changed = True
    shared = []
    for h in all_helpers:
        us = placement[h[0]]
        if len(us) == 0:
            print("UNUSED helper", h[0], file=sys.stderr)
        elif len(us) == 1:
            dests[next(iter(us))].helpers.append((h[1], h[2], h[3]))
        else:
            shared.append(h)
    shared_names = [h[0] for h in shared]
    files = {}
    if shared:
        sd = os.path.dirname(shared_path)
        chunks = []
        for h in shared:
            c = h[1]
            c = re.sub(r'^((?:/\*\*.*?\*/\n)?)(async function|function|const|let|class)', r'\1export \2', c, count=1, flags=re.S)
            chunks.append((fix_urls(c, h[2], sd), h[2], h[3]))
        files[shared_path] = assemble("// Helpers shared by more than one contract test file.\n", chunks, [], sd, {})
    for k, d in dests.items():
        dd = os.path.dirname(d.path)
        extra = {n: (os.path.relpath(shared_path, dd) if os.path.relpath(shared_path, dd).startswith(".") else "./" + os.path.relpath(shared_path, dd)) for n in shared_names}
        files[d.path] = assemble(d.header, [(fix_urls(c, s, dd), s, i) for c, s, i in d.helpers], [(fix_urls(c, s, dd), s, i) for c, s, i in d.tests], dd, extra)
    return files

def assemble(header, helpers, tests, dst_dir, extra):
    body = "\n".join(c for c, _, _ in helpers + tests)
    needed = []
    seen = set()
    got = {}
    for c, src_dir, imports in helpers + tests:
        for local, info in imports.items():
            if uses(c, local):
                key = (relmod(info[0], src_dir, dst_dir), info[1], info[2])
                if local in got and got[local] != key:
                    raise SystemExit("CONFLICT %s in %s: %s vs %s" % (local, dst_dir, got[local], key))
                if local not in got:
                    got[local] = key; needed.append((local, info, src_dir))
    for n, p in extra.items():
        if uses(body, n):
            needed.append((n, (p, n, False), dst_dir))
    return header + "\n" + render_imports(needed, dst_dir) + "\n" + body
C = "tests/contract/"
U = "tests/unit/"
H = lambda s: "// " + s + "\n"
dests = {
 "c1": Dest(C+"c1_api_test.ts", H("CONTRACT C1 (public API) at the tools level, against real files; host policies and events.")),
 "c1d": Dest(C+"c1_definitions_test.ts", H("CONTRACT C1.3: what a model sees before any file is touched: definitions, guidance, systemPrompt, token budget.")),
 "c2": Dest(C+"c2_config_test.ts", H("CONTRACT C2 (config) at the tools level, against real files.")),
 "c3": Dest(C+"c3_paths_test.ts", H("CONTRACT C3 (paths and roots) at the tools level, against real files.")),
 "c41": Dest(C+"c4_list_test.ts", H("CONTRACT C4.1 (`list`) at the tools level, against real files.")),
 "c42": Dest(C+"c4_read_test.ts", H("CONTRACT C4.2 (`read`) at the tools level, against real files.")),
 "c434": Dest(C+"c4_write_edit_test.ts", H("CONTRACT C4.3 (`write`) and C4.4 (`edit`) at the tools level: atomic replacement, temp files, line breaks.")),
 "c5": Dest(C+"c5_policy_test.ts", H("CONTRACT C5 (read-before-write) at the tools level: sessions, versions, serialization.")),
 "c6": Dest(C+"c6_values_test.ts", H("CONTRACT C6 (structured values) at the tools level, against real files.")),
 "c7": Dest(C+"c7_errors_test.ts", H("CONTRACT C7 (errors and aborts) at the tools level, against real files.")),
 "c8": Dest(C+"c8_presentation_test.ts", H("CONTRACT C8 (`presentCall`, Agent Client Protocol presentation): synchronous, no file access.")),
 "fmt": Dest(U+"formats_test.ts", H("Unit tests of src/present/formats.ts and acp.ts: OpenAI, Anthropic, MCP and ACP conversions.")),
}
SEC = {"C1":"c1","C2":"c2","C3":"c3","C4.1":"c41","C4.2":"c42","C4.3":"c434","C4.4":"c434","C5":"c5","C6":"c6","C7":"c7","Host":"c1","C8":"c8"}
def contract_assign(name, section):
    m = re.match(r"// --- (\S+)", section)
    return SEC[m.group(1)]
def by_clause(name, section):
    m = re.match(r"C(\d+)(\.\d+)?", name)
    c = "C" + m.group(1) + (m.group(2) or "")
    return {"C4.3":"c434","C4.4":"c434","C3.5":"c3","C5.5":"c5","C5":"c5","C5.7":"c5","C7.2":"c7"}[c]
def defs_assign(name, section):
    if name.startswith("presentCall"): return "c8"
    if re.match(r"to[A-Z]|the formats hand out", name): return "fmt"
    return "c1d"
plan = [("tests/contract_test.ts", contract_assign), ("tests/write_edit_test.ts", by_clause), ("tests/definitions_test.ts", defs_assign)]

SOURCES = ["tests/contract_test.ts", "tests/write_edit_test.ts", "tests/definitions_test.ts"]


def split_at(ref, out_dir):
    """Splits `ref`'s versions of SOURCES into out_dir (mirroring the repository's paths)."""
    src_dir = os.path.join(out_dir, "src")
    for path in SOURCES:
        text = subprocess.run(["git", "show", f"{ref}:{path}"], capture_output=True, text=True).stdout
        if path.endswith("write_edit_test.ts"):  # the one rename the split made: BOM (text) -> BOM_TEXT
            text = text.replace('const BOM = "\\uFEFF";', 'const BOM_TEXT = "\\uFEFF";').replace("${BOM}", "${BOM_TEXT}")
        os.makedirs(os.path.join(src_dir, "tests"), exist_ok=True)
        open(os.path.join(src_dir, path), "w").write(text)
    cwd = os.getcwd()
    os.chdir(src_dir)
    for k in dests:
        dests[k].helpers, dests[k].tests = [], []
    files = run([(p, a) for p, a in plan if os.path.getsize(p) > 0], dests, C + "_shared.ts")
    os.chdir(cwd)
    for p, t in files.items():
        full = os.path.join(out_dir, p)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        open(full, "w").write(t)
    subprocess.run(["deno", "fmt", "--quiet", "--line-width=100", os.path.join(out_dir, "tests")], check=True)
    return set(files)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__ or "usage: port_split_tests.py <base-ref> <branch-ref>")
    base_ref, branch_ref = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        base_dir, theirs_dir = os.path.join(tmp, "base"), os.path.join(tmp, "theirs")
        paths = split_at(base_ref, base_dir) | split_at(branch_ref, theirs_dir)
        conflicts = []
        for p in sorted(paths):
            base_file, theirs_file = os.path.join(base_dir, p), os.path.join(theirs_dir, p)
            for f in (base_file, theirs_file):
                if not os.path.exists(f):
                    open(f, "w").close()
            if open(base_file).read() == open(theirs_file).read():
                continue
            if not os.path.exists(p):
                open(p, "w").close()
            status = subprocess.run(["git", "merge-file", "-L", "ours", "-L", base_ref, "-L", branch_ref, p, base_file, theirs_file]).returncode
            print(("CONFLICT " if status else "merged   ") + p)
            if status:
                conflicts.append(p)
        sys.exit(1 if conflicts else 0)


if __name__ == "__main__":
    main()
