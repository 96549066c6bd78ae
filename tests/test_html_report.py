"""--html-report: every file and finding on a page, links that land, counts that match, text escaped."""
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

from tf_migrate import report, verify
from tf_migrate.cli import main
from tf_migrate.html_report import page_name, write_report
from tf_migrate.html_report.side_by_side import diff_table
from tf_migrate.runner import FileOutcome

# Its tests share a session fixture that runs every sample: one worker runs them all, the fixture once.
pytestmark = pytest.mark.xdist_group("samples-report")

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
_VOID = {"meta", "br", "col", "hr", "img", "input", "link", "wbr"}
_FETCHING_TAGS = {"script", "link", "img", "iframe", "object", "embed", "audio", "video", "source", "base"}


class Page(HTMLParser):
    """What the tests read from a page: ids, links, text, tags; and that every element is closed in order."""

    def __init__(self, path: Path):
        super().__init__(convert_charrefs=True)
        self.path, self.ids, self.links, self.tags, self.attributes = path, set(), [], [], []
        self.texts, self.stack, self.findings, self.style, self.h1 = [], [], {}, "", ""
        self._finding = None
        self.feed(path.read_text(encoding="utf-8"))
        self.close()
        assert not self.stack, f"{path.name}: unclosed {self.stack}"
        self.text = "".join(self.texts)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.attributes.extend(v for v in attrs.values() if v)
        if tag not in _VOID:
            self.stack.append(tag)
        if "id" in attrs:
            assert attrs["id"] not in self.ids, f"{self.path.name}: duplicate id {attrs['id']}"
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
            if self._finding is not None:
                self.findings[self._finding]["links"].append(attrs["href"])
        if tag == "li" and attrs.get("id", "").startswith("f"):
            self._finding = attrs["id"]
            self.findings[self._finding] = {"text": "", "links": []}

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"{self.path.name}: </{tag}> closes {self.stack[-1:]}"
        self.stack.pop()
        if tag == "li":
            self._finding = None

    def handle_data(self, data):
        self.texts.append(data)
        if self.stack and self.stack[-1] == "style":
            self.style += data
        if self.stack and self.stack[-1] == "h1":
            self.h1 += data
        if self._finding is not None:
            self.findings[self._finding]["text"] += data


def _read_report(folder: Path):
    index = Page(folder / "index.html")
    pages = {href: Page(folder / unquote(href)) for href in index.links if href.startswith("files/")}
    return index, pages


def _assert_links_land(folder: Path, page: Page):
    for href in page.links:
        target, _, fragment = href.partition("#")
        target_page = page if not target else Page((page.path.parent / unquote(target)).resolve())
        assert target_page.path.is_relative_to(folder.resolve()) or target_page is page
        if fragment:
            assert fragment in target_page.ids, f"{page.path.name}: {href} leads nowhere"


def _assert_self_contained(page: Page):
    assert not _FETCHING_TAGS & set(page.tags), page.path.name
    for value in page.attributes:
        assert not re.match(r"\s*(https?:|//|file:|data:)", value, re.I), f"{page.path.name}: {value}"
    assert "url(" not in page.style and "@import" not in page.style


@pytest.fixture(scope="session")
def samples_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("samples-report")
    code = main([str(SAMPLES), "-q", "--report", str(out / "summary.json"), "--html-report", str(out / "html")])
    assert code == 0
    return out / "html", json.loads((out / "summary.json").read_text())


def test_index_lists_every_input_file_with_a_page(samples_run):
    folder, _ = samples_run
    index, pages = _read_report(folder)
    inputs = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".py", ".ipynb"))
    assert len(pages) == len(inputs) == 33
    for path in inputs:
        assert str(path) in index.text
    assert sorted(page.h1 for page in pages.values()) == [str(path) for path in inputs]
    for page in pages.values():
        assert page.links[0] == "../index.html"


def test_index_counts_match_the_run_summary(samples_run):
    folder, summary = samples_run
    index = Page(folder / "index.html")
    counts = _counts(folder / "index.html")
    assert counts["count-files"] == summary["files_seen"] == 33
    for outcome in (report.EAGER, report.COMPAT, report.UNCHANGED, report.SKIPPED, report.FAILED):
        assert counts[f"count-{outcome}"] == summary["outcomes"].get(outcome, 0)
    for severity in report.SEVERITIES:
        assert counts[f"findings-{severity}"] == summary["findings_by_severity"].get(severity, 0)
    assert summary["outcomes"][report.EAGER] > 20 and summary["outcomes"][report.COMPAT] >= 1
    assert "svg" in index.tags and not any(i.startswith("verify-") for i in counts)
    assert "Inputs not read" not in index.text  # notebook findings (path:cell N) belong to their notebook


def _counts(index: Path):
    return {m.group(1): int(m.group(2)) for m in re.finditer(r'<span id="([\w-]+)">(\d+)</span>', index.read_text())}


def test_every_finding_is_on_its_page_and_links_to_its_line(samples_run):
    folder, summary = samples_run
    index, pages = _read_report(folder)
    by_path = {page.h1: page for page in pages.values()}
    assert len(by_path) == 33
    for finding in summary["findings"]:
        page = by_path[re.sub(r":cell \d+$", "", finding["path"])]
        matches = [f for f in page.findings.values() if finding["message"] in f["text"]
                   and f"line {finding['line']}:{finding['col']}" in f["text"]]
        assert matches, f"{finding} not on {page.path.name}"
        cell = re.search(r":cell (\d+)$", finding["path"])
        line_id = (f"c{cell.group(1)}-" if cell else "") + f"o{finding['line']}"  # the before-side line's id
        links = [link for f in matches for link in f["links"]]
        assert f"#{line_id}" in links and line_id in page.ids, finding
    cells = [p for p in by_path.values() if "Cell " in p.text]
    assert len(cells) >= 3  # the notebooks show their changed cells, each labelled


def test_every_link_lands_and_nothing_is_fetched(samples_run):
    folder, _ = samples_run
    index, pages = _read_report(folder)
    for page in [index, *pages.values()]:
        _assert_links_land(folder, page)
        _assert_self_contained(page)


def test_compat_reason_links_to_the_line_that_decided_it(samples_run):
    folder, summary = samples_run
    _, pages = _read_report(folder)
    compat = [p for p in pages.values() if "Kept in compat mode:" in p.text]
    assert len(compat) == summary["outcomes"][report.COMPAT]
    for page in compat:
        assert any(re.fullmatch(r"#(c\d+-)?o\d+", link) for link in page.links), page.path.name


HOSTILE = '''import tensorflow as tf

x = tf.placeholder(tf.float32, [None])  # </td></tr><script>alert(1)</script> & &amp;
y = tf.reduce_sum(x)  # \x1b
with tf.Session() as sess:
    print(sess.run(y, {x: [1.0]}), "<script>alert(2)</script>")
'''


def test_hostile_source_and_path_render_as_text(tmp_path):
    folder = tmp_path / 'in <b>"odd" & dir'
    folder.mkdir()
    hostile = folder / "we<script>ird 'x'.py"
    hostile.write_text(HOSTILE)
    (folder / "deeper").mkdir()
    (folder / "deeper" / "we<script>ird 'x'.py").write_text(HOSTILE.replace("alert(1)", "alert(3)"))
    assert main([str(folder), "-q", "--html-report", str(tmp_path / "out")]) == 0
    index, pages = _read_report(tmp_path / "out")
    assert len(pages) == 2
    for page in [index, *pages.values()]:
        assert "script" not in page.tags and "b" not in page.tags
        assert re.fullmatch(r"[A-Za-z0-9._-]+", page.path.name)
        _assert_links_land(tmp_path / "out", page)
    assert str(hostile) in index.text
    page = next(p for p in pages.values() if str(hostile) in p.text)
    assert "# </td></tr><script>alert(1)</script> & &amp;" in page.text
    assert '"<script>alert(2)</script>")' in page.text
    assert "\u241b" in page.text  # the escape character, shown as its picture


def test_page_names_are_stable_distinct_and_safe():
    assert page_name("a/b.py") == page_name("a/b.py")
    assert page_name("a/b.py") != page_name("a_b.py")
    for odd in ("../../etc/passwd", "C:\\x\\y.py", "\udcff\u00e9.py", "", "." * 300):
        assert re.fullmatch(r"[A-Za-z0-9._-]+\.html", page_name(odd)) and not page_name(odd).startswith(".")
        assert len(page_name(odd)) < 100


def test_diff_table_anchors_lines_marks_changes_and_places_notes():
    table, changes = diff_table("a = 1\nb = 2\nc = 3\n", "a = 1\nb = 20\nc = 3\nd = 4\n", {2: "NOTE"})
    assert changes == 2
    assert 'id="o2"' in table and 'id="n4"' in table and 'id="chg2"' in table
    assert '2<span class="x">0</span>' in table
    assert table.index('id="o2"') < table.index("NOTE") < table.index('id="o3"')


def test_verify_verdicts_and_details_are_shown(tmp_path):
    source = "import tensorflow as tf\nprint(1)\n"
    outcome = FileOutcome("prog.py", report.EAGER, [], "", [], source, source.replace("1", "2"))
    summary = report.Summary()
    summary.add(outcome.path, outcome.outcome, outcome.findings)
    summary.verify_counts[verify.DIFFERENT] += 1
    result = verify.VerifyResult(verify.DIFFERENT, "value 1 != 2: legacy output line 1 '<1>'", "1\n", "2\n", 3.0)
    write_report(tmp_path, [outcome], summary, {"prog.py": result})
    index, pages = _read_report(tmp_path)
    assert _counts(tmp_path / "index.html")["verify-different"] == 1
    assert "Verify verdicts" in index.text
    page = next(iter(pages.values()))
    assert "value 1 != 2: legacy output line 1 '<1>'" in page.text
    assert "the migrated program printed something else" in page.text


def test_an_input_that_cannot_be_read_is_counted_and_listed(tmp_path):
    good = tmp_path / "good.py"
    good.write_text(HOSTILE)
    missing = tmp_path / "missing.py"
    assert main([str(good), str(missing), "-q", "--html-report", str(tmp_path / "out")]) == 123
    index, pages = _read_report(tmp_path / "out")
    assert len(pages) == 1 and _counts(tmp_path / "out" / "index.html")["count-failed"] == 1
    assert "Inputs not read" in index.text and str(missing) in index.text


def test_a_line_moved_below_new_code_sits_next_to_its_rewrite():
    old = "import tensorflow as tf\ntf.set_random_seed(1)\nx = 1\n"
    new = "import tensorflow as tf\n\ndef to_numpy(fetched):\n    return fetched\n\ntf.random.set_seed(1)\nx = 1\n"
    table, _ = diff_table(old, new, {})
    row = next(r for r in table.split("\n") if 'id="o2"' in r)
    assert 'id="n6"' in row  # not next to the unrelated blank line 2


def test_a_file_that_fails_shows_the_line_that_failed(tmp_path):
    (tmp_path / "py2.py").write_text("import tensorflow as tf\nprint 'hello <b>'\n")
    assert main([str(tmp_path / "py2.py"), "-q", "--html-report", str(tmp_path / "out")]) == 123
    _, pages = _read_report(tmp_path / "out")
    page = next(iter(pages.values()))
    assert "Failed:" in page.text and "print 'hello <b>'" in page.text
    (finding,) = page.findings.values()
    assert "syntax error" in finding["text"] and finding["links"] == ["#o2"] and "o2" in page.ids


def test_verify_run_puts_each_verdict_on_the_report(tmp_path):
    (tmp_path / "prog.py").write_text(HOSTILE.replace("  # \x1b", ""))
    assert main([str(tmp_path / "prog.py"), "--verify", "-q", "--html-report", str(tmp_path / "out")]) == 0
    index, pages = _read_report(tmp_path / "out")
    assert _counts(tmp_path / "out" / "index.html")["verify-equivalent"] == 1
    (page,) = pages.values()
    assert "Verify:" in page.text and "both programs printed the same values" in page.text
