"""The `cardavia` command, run in-process through its entry function."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardavia.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", ["scopa", "briscola"])
def test_selfplay_same_seed_same_output(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code1, out1, _ = _run(
        capsys, "selfplay", "--game", game, "--games", "4", "--seed", "x", "--record", str(first)
    )
    code2, out2, _ = _run(
        capsys, "selfplay", "--game", game, "--games", "4", "--seed", "x", "--record", str(second)
    )
    assert code1 == code2 == 0
    assert out1 == out2
    assert first.read_bytes() == second.read_bytes()
    lines = first.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    assert all(json.loads(line)["game"] == game for line in lines)
    assert "4 games" in out1
    _, other, _ = _run(capsys, "selfplay", "--game", game, "--games", "4", "--seed", "y")
    assert other != out1


def test_replay_reports_ok_and_mismatches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "r.jsonl"
    _run(capsys, "selfplay", "--game", "scopa", "--games", "2", "--seed", "r", "--record", str(records))
    code, out, _ = _run(capsys, "replay", str(records))
    assert code == 0
    assert "2 records, 2 replay exactly, 0 with mismatches" in out

    lines = records.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[1])
    broken["result"]["winner"] = 1 - (broken["result"]["winner"] or 0)
    records.write_text(lines[0] + "\n" + json.dumps(broken) + "\nnot json\n", encoding="utf-8")
    code, out, _ = _run(capsys, "replay", str(records))
    assert code == 1
    assert "line 2: MISMATCH" in out
    assert "line 3: MISMATCH not JSON" in out
    assert "3 records, 1 replay exactly, 2 with mismatches" in out


def test_replay_from_a_server_is_an_option_of_the_same_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    usage = capsys.readouterr().out
    assert "--server URL" in usage
    assert "--step" in usage
    assert "FILE|RECORD" in usage
    code, out, err = _run(capsys, "replay", "--server", "ftp://nowhere.invalid/", "r-1-1", "--lang", "en")
    assert code == 2
    assert not out
    assert "ws://host:port/" in err


def test_replay_of_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert code == 2
    assert "cannot read" in err


def test_unknown_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["selfplay", "--game", "poker"])
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_decks_lists_the_catalogue_in_a_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "decks", "--lang", "sv")
    assert code == 0
    assert "bolognese" in out
    assert "Primiera Bolognese" in out
    assert "french54" in out


@pytest.mark.parametrize(
    ("lang", "forty", "fifty_four"),
    [("pl", "40 kart", "54 karty"), ("it", "40 carte", "54 carte"), ("en", "40 cards", "54 cards")],
)
def test_decks_count_cards_in_the_language_asked(
    capsys: pytest.CaptureFixture[str], lang: str, forty: str, fifty_four: str
) -> None:
    code, out, _ = _run(capsys, "decks", "--lang", lang)
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert forty in lines["bolognese"]
    assert fifty_four in lines["french54"]
    if lang != "en":
        assert "cards" not in out
