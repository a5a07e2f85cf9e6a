"""The screens driven by simulated touches (Kivy's GraphicUnitTest + UnitTestTouch), headless.

Screenshots go to $KIOSK_SCREENSHOT_DIR, kept; when it is unset, to a temporary folder a test
removes when it ends."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
from kivy.tests.common import GraphicUnitTest, UnitTestTouch

from kiosk.app.actions import ActionKind, DirectorAction, DirectorActionKind, PlayerAction
from kiosk.app.compose import build_screens
from kiosk.app.model import DirectorModel, TableModel, apply_director_snapshot, apply_snapshot
from tests.app import samples
from tests.app.referee_prompts import Shown, shown_prompts

SCREEN = (800, 480)
# MSO 1.5, JBL 1.9: words of aids that must never reach the players' screen in normal play.
AIDS = re.compile(
    r"pip|equity|legal play|best|gin|win:|gammon:|ピップ|エクイティ|合法手|最善|勝ち:|確定",
    re.IGNORECASE,
)


class KioskScreensTest(GraphicUnitTest):  # type: ignore[misc]
    """One ScreenManager per test: table, PIN pad, director, on an 800x480 window."""

    def setUp(self) -> None:
        super().setUp()  # sets a 320x240 window: resize it to the kiosk's screen
        self.Window.size = SCREEN
        self.Window.create_window()
        kept = os.environ.get("KIOSK_SCREENSHOT_DIR")
        if kept:
            self.shots = Path(kept)
            self.shots.mkdir(parents=True, exist_ok=True)
        else:
            self.shots = Path(tempfile.mkdtemp(prefix="kiosk-shots-"))
            self.addCleanup(shutil.rmtree, self.shots, True)
        self.table = TableModel()
        self.director = DirectorModel()
        apply_snapshot(self.table, samples.table())
        apply_director_snapshot(self.director, samples.director())
        self.actions: list[PlayerAction] = []
        self.director_actions: list[DirectorAction] = []
        self.root = build_screens(
            self.table,
            self.director,
            sink=self.actions.append,
            director_sink=self.director_actions.append,
            pin="2468",
        )
        self.render(self.root)
        self.advance_frames(3)

    # helpers ---------------------------------------------------------------------------

    def screen(self, name: str) -> Any:
        return self.root.get_screen(name)

    def tap(self, widget: Any) -> None:
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.advance_frames(3)

    def wait_until_only_the_screens_are_shown(self) -> None:
        """Let a closing modal view finish its animation (a second at most)."""
        deadline = time.monotonic() + 1.0
        while self.Window.children != [self.root] and time.monotonic() < deadline:
            self.advance_frames(1)
            time.sleep(0.01)
        assert self.Window.children == [self.root]

    def update(self, **changes: Any) -> None:
        apply_snapshot(self.table, samples.table(**changes))
        self.advance_frames(3)

    def shown(self) -> list[Any]:
        """Every widget on the window: the current screen and any open modal view."""
        return [w for top in self.Window.children for w in top.walk()]

    def texts(self) -> list[str]:
        return [str(w.text) for w in self.shown() if hasattr(w, "text") and w.text]

    def button(self, text: str) -> Any:
        found = [
            w
            for w in self.shown()
            if getattr(w, "text", None) == text and hasattr(w, "trigger_action")
        ]
        assert len(found) == 1, f"one button {text!r}, found {len(found)}"
        return found[0]

    def resize(self, size: tuple[int, int]) -> None:
        self.Window.size = size
        self.Window.create_window()
        self.advance_frames(3)

    def shoot(self, name: str) -> Path:
        self.advance_frames(3)
        written = Path(self.Window.screenshot(name=str(self.shots / f"{name}.png")))
        image = cv2.imread(str(written))
        assert image is not None
        assert image.shape[:2] == (self.Window.height, self.Window.width)
        # Every quarter drawn (not left black) and not an uninitialised framebuffer (noise):
        # the UI's backgrounds are flat and never black.
        h, w = image.shape[0] // 2, image.shape[1] // 2
        for quarter in (image[:h, :w], image[:h, w:], image[h:, :w], image[h:, w:]):
            assert float(quarter.mean()) > 8.0, f"{name}: a quarter of the screen is black"
            noise = float(cv2.absdiff(quarter[:, 1:], quarter[:, :-1]).mean())
            assert noise < 10.0, f"{name}: the screenshot looks like noise ({noise:.1f})"
        return written

    # the table view ----------------------------------------------------------------------

    def test_table_view_shows_clocks_score_cube_turn_and_dice(self) -> None:
        texts = self.texts()
        assert "8:54" in texts
        assert "10:01" in texts
        assert "Delay 9 s" in texts
        assert "7-point match · MSO" in texts
        assert any(
            "Cube 2 · Ben" in t and "Aiko to play" in t and ("Dice: 5 2" in t) for t in texts
        )
        left = self.screen("table").ids.left
        assert left.score_text == "2"
        assert left.running
        assert not self.screen("table").ids.right.running
        self.shoot("table_en")

    def test_touch_targets_are_large_and_inside_the_screen_at_both_sizes(self) -> None:
        for size in (SCREEN, (1024, 600)):
            self.resize(size)
            buttons = [w for w in self.shown() if hasattr(w, "trigger_action")]
            assert len(buttons) >= 8
            for button in buttons:
                x, y = button.to_window(button.x, button.y)
                label = f"{button.text!r} at {size}"
                assert button.height >= 44, label
                assert button.width >= 80, label
                assert x >= 0, label
                assert y >= 0, label
                assert x + button.width <= size[0] + 1, label
                assert y + button.height <= size[1] + 1, label
        self.update(prompt=samples.ILLEGAL_MOVE)
        self.shoot("illegal_move_1024")

    def test_double_and_concede_are_emitted_for_the_touching_player(self) -> None:
        self.update(cube={"value": 1, "owner": None})
        table = self.screen("table")
        assert table.ids.right.ids.double.disabled  # not Ben's turn
        self.tap(table.ids.left.ids.double)
        self.tap(table.ids.right.ids.concede)
        self.tap(self.button("Gammon"))
        self.wait_until_only_the_screens_are_shown()
        self.tap(table.ids.call_director)
        assert "Who calls the director?" in self.texts()
        self.tap(self.button("Ben"))
        self.wait_until_only_the_screens_are_shown()
        assert self.actions == [
            PlayerAction(ActionKind.DOUBLE, 0),
            PlayerAction(ActionKind.CONCEDE, 1, "gammon"),
            PlayerAction(ActionKind.CALL_DIRECTOR, 1),
        ]

    def test_a_referee_notice_offers_its_choices_to_the_player_named(self) -> None:
        self.update(
            prompt={
                "kind": "notice",
                "text": "Ben offers to concede a gammon",
                "to": 0,
                "choices": ["accept", "reject"],
            }
        )
        assert "Ben offers to concede a gammon" in self.texts()
        assert "Aiko, your decision:" in self.texts()
        self.tap(self.button("Refuse"))
        assert self.actions == [PlayerAction(ActionKind.REJECT, 0)]

    def test_no_double_in_the_crawford_game_or_with_the_cube_owned_by_the_opponent(self) -> None:
        table = self.screen("table")
        assert table.ids.left.ids.double.disabled
        self.update(
            cube={"value": 1, "owner": None},
            match={
                "length": 7,
                "score": [6, 3],
                "crawford": True,
                "post_crawford": False,
                "ruleset": "mso",
            },
        )
        assert table.ids.left.ids.double.disabled
        assert any("Crawford game" in t for t in self.texts())

    def test_illegal_move_prompt_lets_the_opponent_demand_a_legal_play(self) -> None:
        self.update(prompt=samples.ILLEGAL_MOVE)
        texts = self.texts()
        assert "Illegal move by Aiko" in texts
        assert any("A 6 was played with 5-2" in t for t in texts)
        assert "Ben, your decision:" in texts
        self.shoot("illegal_move_en")
        self.tap(self.button("Demand a legal move"))
        assert self.actions == [PlayerAction(ActionKind.DEMAND_LEGAL, 1)]

    def test_japanese_is_switchable_at_the_table(self) -> None:
        self.update(prompt=samples.ILLEGAL_MOVE)
        self.tap(self.screen("table").ids.language)
        assert self.table.language == "ja"
        texts = self.texts()
        assert "Aiko の不正な手" in texts
        assert any("5-2 の目で 6 を動かしました" in t for t in texts)
        assert "ディレクターを呼ぶ" in texts
        self.shoot("illegal_move_ja")
        self.tap(self.button("この手を認める"))
        assert self.actions == [PlayerAction(ActionKind.CONDONE, 1)]
        self.update(language="ja")
        self.shoot("table_ja")

    def test_setup_error_draws_the_correct_setup(self) -> None:
        self.update(prompt=samples.SETUP_ERROR)
        view = self.screen("table").card_view
        assert view is not None
        assert list(view.ids.diagram.highlight) == [8, 9]
        assert "The starting setup is wrong" in self.texts()
        self.shoot("setup_error_en")

    def test_no_aids_at_the_table_in_normal_play(self) -> None:
        # MSO 1.5, JBL 1.9: no pip count, legal or best play, equity or gin verdict; the
        # snapshot even carries aid fields, which must not leak.
        legal_plays = samples.director()["incidents"][1]["legal_plays"]
        states: list[dict[str, Any]] = [
            {"prompt": {"kind": "none"}},
            {"prompt": {"kind": "cube_offered", "side": 0, "value": 4}},
            {"prompt": {"kind": "invalid_dice", "side": 1, "reason": "cocked"}},
            {"prompt": {"kind": "paused", "reason": "director"}},
            {"prompt": samples.ILLEGAL_MOVE},
            {"prompt": samples.SETUP_ERROR},
        ]
        for language in ("en", "ja"):
            for state in states:
                self.update(
                    language=language,
                    pips=[167, 142],
                    equity=0.31,
                    legal_plays=legal_plays,
                    best_play="13/8 6/4",
                    **state,
                )
                for text in self.texts():
                    assert AIDS.search(text) is None, f"aid shown: {text!r} in {state}"
                    for play in legal_plays:
                        assert play not in text

    def test_a_ruling_on_time_expiry_may_show_the_gin_verdict(self) -> None:
        self.update(
            prompt={
                "kind": "ruling",
                "topic": "time_expiry",
                "side": 0,
                "decision": "loses_game",
                "gin": {"win": "certain", "gammon": "impossible"},
            }
        )
        texts = self.texts()
        assert "Time expired: Aiko loses the game" in texts
        assert any("Win: certain" in t for t in texts)

    def show_referee_prompt(self, kind: str, param: str | None = None) -> Shown:
        """The table as the referee left it when it first showed ``kind`` (with ``param``)."""
        shown = next(
            s
            for s in shown_prompts()
            if s.prompt.kind == kind and (param is None or s.prompt.param(param) is not None)
        )
        apply_snapshot(self.table, shown.snapshot)
        self.advance_frames(3)
        return shown

    def test_referee_notices_read_in_japanese(self) -> None:
        self.table.language = "ja"
        shown = self.show_referee_prompt("premature_roll_choice")
        texts = self.texts()
        assert "Ben が早すぎるロールをしました: このロールを認めますか?" in texts
        assert "Aiko さん、選んでください:" in texts
        self.shoot("notice_premature_roll_ja")
        self.tap(self.button("振り直しを求める"))
        assert self.actions == [
            PlayerAction(ActionKind.PREMATURE_ROLL_REROLL, shown.seating.side(0))
        ]
        self.wait_until_only_the_screens_are_shown()
        self.show_referee_prompt("concession_offered", "verdict")
        texts = self.texts()
        assert "Ben がギャモン勝ちを宣言しました" in texts  # the JBL word (4.2.2 (7), 4.6)
        assert "確定: Aiko のギャモン負け" in texts  # a ruling on an offered end (JBL 1.9)
        self.shoot("notice_claim_ruling_ja")
        self.show_referee_prompt("game_over")
        assert any(t.startswith("Ben のギャモン勝ち") for t in self.texts())
        self.shoot("notice_game_over_ja")
        self.show_referee_prompt("setup_choice")
        assert "足りないチェッカーをバーへ" in self.texts()
        self.shoot("notice_setup_choice_ja")
        self.show_referee_prompt("match_over", "loser")
        self.shoot("notice_match_over_ja")

    # the director's view -------------------------------------------------------------------

    def test_director_view_needs_the_pin(self) -> None:
        self.tap(self.screen("table").ids.director)
        assert self.root.current == "pin"
        pin = self.screen("pin")
        for key in "1111":
            self.tap(self.button(key))
        self.tap(pin.ids.ok)
        assert pin.message == "Wrong PIN"
        assert self.root.current == "pin"
        for key in "2468":
            self.tap(self.button(key))
        assert pin.dots == "●●●●"
        self.tap(pin.ids.ok)
        assert self.root.current == "director"

    def test_director_sees_the_incident_snapshot(self) -> None:
        folder = self.shots / "snapshots"
        folder.mkdir()
        image = cv2.resize(cv2.imread(str(self.shoot("snapshot_source"))), (320, 192))
        cv2.imwrite(str(folder / "2.png"), image)
        data = samples.director()
        data["incidents"][1]["snapshot"] = str(folder / "2.png")
        data["incidents"][0]["snapshot"] = str(folder / "missing.png")
        apply_director_snapshot(self.director, data)
        self.root.current = "director"
        self.advance_frames(2)
        self.tap(self.button("#2  12:34  Illegal move"))
        director = self.screen("director")
        assert director.ids.snapshot.source == str(folder / "2.png")
        self.shoot("director_snapshot_en")
        self.tap(self.button("#1  1:35  Invalid roll ✓"))
        assert director.ids.snapshot.source == ""
        assert director.ids.diagram.opacity == 0
        assert "Ruling: Dismissed" in director.detail_text

    def test_director_reviews_rules_corrects_and_exports(self) -> None:
        self.root.current = "director"
        self.advance_frames(2)
        self.tap(self.button("#2  12:34  Illegal move"))
        director = self.screen("director")
        assert "Legal plays: 13/8 6/4, 13/11 13/8, 8/3 6/4, 13/8 8/6" in director.detail_text
        assert director.ids.diagram.opacity == 1
        self.shoot("director_en")
        self.tap(self.button("Uphold"))
        self.tap(director.ids.match_tab)
        self.tap(self.button("Ben +1 min"))
        self.tap(self.button("Aiko −1"))
        self.tap(self.button("JBL"))
        self.tap(director.ids.export)
        assert self.director_actions == [
            DirectorAction(DirectorActionKind.RULE, 2, ruling="upheld"),
            DirectorAction(DirectorActionKind.ADJUST_CLOCK, side=1, delta=60000),
            DirectorAction(DirectorActionKind.ADJUST_SCORE, side=0, delta=-1),
            DirectorAction(DirectorActionKind.SET_RULESET, name="jbl"),
            DirectorAction(DirectorActionKind.EXPORT_MAT),
        ]
        assert "Rule set: MSO" in director.settings_label
        self.shoot("director_match_en")
        self.table.language = "ja"
        self.tap(director.ids.incidents_tab)
        self.shoot("director_ja")
        self.tap(director.ids.back)
        assert self.root.current == "table"
