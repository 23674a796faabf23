"""API coverage: every documented name is supported (a row of the API table,
src/compiler/api_table.def) or listed with its reason in
pyasc/_api_unsupported.py; the generated list, docs table and CLI agree."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import pyasc
from pyasc import _C, _api, _api_ref
from pyasc.__main__ import main as cli
from pyasc._api_unsupported import NOT_SUPPORTED

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "reference"


def _tool():
    spec = importlib.util.spec_from_file_location("gen_api_coverage",
                                                  ROOT / "tools" / "gen_api_coverage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_documented_name_is_supported_or_listed_with_a_reason():
    apis = _api.table_apis()
    unlisted = [n for n in _api.documented()
                if not _api.is_supported(n, apis) and not NOT_SUPPORTED.get(n, "").strip()]
    assert not unlisted, f"documented but neither supported nor listed: {unlisted}"


def test_the_not_supported_list_has_no_stale_or_unknown_names():
    documented = set(_api.documented())
    apis = _api.table_apis()
    unknown = sorted(set(NOT_SUPPORTED) - documented)
    assert not unknown, f"not documented names in the not-supported list: {unknown}"
    stale = sorted(n for n in NOT_SUPPORTED if _api.is_supported(n, apis))
    assert not stale, f"supported now: delete them from pyasc/_api_unsupported.py: {stale}"


def test_every_api_named_by_the_table_is_documented():
    documented = set(_api_ref.LANGUAGE)
    named = {row["api"] for row in _C.api_table() if row["api"]}
    assert named and not named - documented, sorted(named - documented)


def test_the_table_has_one_row_per_ir_op_and_every_op_a_runtime_form():
    rows = _C.api_table()
    ops = [r["op"] for r in rows if r["op"]]
    assert len(ops) == len(set(ops)) > 100
    for r in rows:
        if r["op"]:
            assert r["pipe"] in ("S", "V", "MTE1", "MTE2", "MTE3", "M", "FIX", ""), r
            assert r["how"] is None
        else:  # served without an op: says how
            assert r["api"] and r["how"], r


def test_supported_functions_and_classes_are_reachable_from_pyasc():
    """The table must not claim a name that the front end cannot reach:
    basic.X and core.X functions are pyasc.X, Class.method needs pyasc.Class."""
    missing = []
    for name in _api.table_apis():
        group, rest = name.split(".", 1)
        if group == "adv":
            target = pyasc.language.adv
            parts = rest.split(".")
        else:
            target = pyasc
            parts = rest.split(".")[:1]
        for part in parts:
            if not hasattr(target, part):
                missing.append(name)
                break
            target = getattr(target, part)
    assert not missing, missing


def test_reference_lists_are_the_shared_ones():
    """The repository's copies (docs/reference) equal the project's shared
    reference lists where those are checked out beside the clone."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is not checked out; the copies in docs/reference are used")
    tool = _tool()
    for _, file in tool.REF_FILES:
        assert tool.read_names(ROOT / "docs" / "reference" / file) == \
            tool.read_names(SHARED / file), file


def test_reference_counts():
    assert len(_api_ref.LANGUAGE) == 277
    assert len(_api_ref.ASC_TOPLEVEL) == 270
    assert len(_api_ref.ASC_ADV) == 53


def test_generated_files_are_up_to_date():
    tool = _tool()
    for path, make in tool.OUTPUTS:
        assert path.read_text(encoding="utf-8") == make(), \
            f"{path.relative_to(ROOT)} is stale: run tools/gen_api_coverage.py"


def test_cli_lists_supported_and_missing_names_per_group(capsys):
    assert cli(["api"]) == 0
    out = capsys.readouterr().out
    for group in _api.GROUPS:
        assert f"\n{group}: " in "\n" + out
    assert "basic.add" in out and "not yet: asc.inline (" in out
    assert cli(["api", "--summary"]) == 0
    summary = capsys.readouterr().out
    basic = next(g for g in _api.coverage() if g.name == "basic")
    assert f"basic: {len(basic.supported)} of 151 supported" in summary
    assert "not yet" not in summary


def test_cli_rejects_unknown_options(capsys):
    with pytest.raises(SystemExit) as info:
        cli(["api", "--bogus"])
    assert info.value.code == 2
    assert "--bogus" in capsys.readouterr().err


def test_unknown_names_are_not_supported():
    assert not _api.is_supported("basic.no_such_api")
    assert not _api.is_supported("asc.no_such_name")
    assert not _api.is_supported("asc.adv.no_such_name")
    assert _api.group_of("asc.adv.softmax") == "asc.adv"
    assert _api.group_of("asc.softmax") == "asc"
    assert _api.group_of("fwk.TPipe.init") == "fwk"


def test_the_checker_tool_reports_stale_files(tmp_path, monkeypatch, capsys):
    tool = _tool()
    stale = tmp_path / "api-coverage.md"
    stale.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "OUTPUTS", ((stale, lambda: "new\n"),))
    assert tool.main(["--check"]) == 1
    assert stale.read_text(encoding="utf-8") == "old\n"
    assert tool.main([]) == 0
    assert stale.read_text(encoding="utf-8") == "new\n"
    assert tool.main(["--check"]) == 0
    assert "stale: api-coverage.md" in capsys.readouterr().out


def test_adv_math_functions_are_the_rows_that_pass_a_function_id():
    """_C.adv_math_functions() (src/compiler/adv_math.def, in id order) names
    exactly the adv ops whose runtime call takes that id."""
    names = _C.adv_math_functions()
    assert len(names) == len(set(names))
    unary = {row["op"] for row in _C.api_table() if row["c_rt"] == "asc_k_adv_unary"}
    assert {"adv." + name for name in names} == unary
