//! Game records: SGF and JSON conversion, replay, the shared real-world files, and
//! write-then-read round trips of random games of every rule set.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_protocol::record::{read_sgf_result, sgf_result, Record, RecordError, SetupStone};
use toroid_protocol::sgf::{self, GameTree};
use toroid_protocol::view::ParamsView;
use toroid_rules::params::{ParamDefault, ParamKind};
use toroid_rules::{Cell, Color, Fault, GameKind, IllegalMove, Move, Outcome, Position, Reason};

fn shared(name: &str) -> String {
    let path = format!(
        "{}/../../../shared/data/sgf/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn cell(record: &Record, point: &str) -> Cell {
    Move::parse(point, record.topology())
        .unwrap()
        .cell()
        .unwrap()
}

#[test]
fn the_ff4_example_replays_and_keeps_its_variations() {
    let text = shared("ff4-example.sgf");
    let record = Record::from_sgf(&text).unwrap();
    assert_eq!(record.kind().name(), "go");
    assert_eq!(record.params().int("size"), Some(19));
    assert_eq!(
        record.params().float("komi"),
        Some(0.0),
        "no KM means komi 0"
    );
    assert_eq!(record.nodes().len(), 14);
    assert_eq!(record.nodes()[0].variations.len(), 4);
    let moves = record.move_notation();
    assert_eq!(moves.len(), 13);
    assert_eq!(&moves[..2], ["pd", "dp"]);
    assert_eq!(&moves[11..], ["pass", "pass"], "W[] and B[tt] are passes");
    assert_eq!(
        record.nodes()[1].comment.as_deref(),
        Some("Nodename set to: \"Moves, comments, annotations\"")
    );
    let game = record.replay().unwrap();
    assert_eq!(game.outcome().map(|o| o.reason), Some(Reason::TwoPasses));

    // Written back, the tree keeps every node; read again, the same record.
    let original = &sgf::parse(&text).unwrap()[0];
    let written = record.to_sgf();
    let tree = &sgf::parse(&written).unwrap()[0];
    assert_eq!(tree.node_count(), original.node_count());
    assert_eq!(tree.leaves(), original.leaves());
    let again = Record::from_sgf(&written).unwrap();
    assert_eq!(again.nodes(), record.nodes());
    assert_eq!(again.params(), record.params());
    assert!(
        written.contains("AB[dd][de][df][dg][do:gq]"),
        "side variations verbatim"
    );
    assert!(written.contains("GW[1]"), "unknown properties kept");
}

#[test]
fn the_second_ff4_game_reads_game_info_from_the_main_line() {
    let text = shared("ff4-example.sgf");
    let trees = sgf::parse(&text).unwrap();
    let record = Record::from_sgf_tree(&trees[1]).unwrap();
    assert_eq!(record.black.as_deref(), Some("B. Lack"));
    assert_eq!(record.white.as_deref(), Some("W. Hite"));
    let result = record.result.unwrap();
    assert_eq!(
        (result.winner, result.margin),
        (Some(Color::White), Some(3.5))
    );
    assert_eq!(record.move_notation(), ["pd", "dp"]);
    assert_eq!(record.nodes()[1].variations.len(), 2);
    let again = Record::from_sgf(&record.to_sgf()).unwrap();
    assert_eq!(again.nodes(), record.nodes());
    assert_eq!(again.result, record.result);
}

#[test]
fn the_blood_vomiting_game_replays() {
    let record = Record::from_sgf(&shared("blood-vomiting-game.sgf")).unwrap();
    assert_eq!(record.black.as_deref(), Some("Akaboshi Intetsu"));
    assert_eq!(record.white.as_deref(), Some("Honinbo Jowa"));
    assert_eq!(record.result, Some(Outcome::resignation(Color::Black)));
    assert_eq!(
        record.params().choice("scoring"),
        Some("japanese"),
        "RU[Japanese]"
    );
    assert_eq!(record.params().choice("ko"), Some("simple"));
    assert_eq!(record.moves().len(), 246);
    let game = record.replay().unwrap();
    assert_eq!(game.ply(), 246);
    assert_eq!(game.turn(), Some(Color::Black));
    assert!(record.nodes()[246]
        .comment
        .as_deref()
        .unwrap()
        .contains("keeled over"));
    let written = record.to_sgf();
    assert!(
        written.contains("RU[Japanese]") && written.contains("RE[W+R]"),
        "{written}"
    );
    let again = Record::from_sgf(&written).unwrap();
    assert_eq!(again.moves(), record.moves());
    assert_eq!(again.nodes(), record.nodes());
}

#[test]
fn setup_stones_are_listed_and_replayed() {
    let record =
        Record::from_sgf("(;GM[1]SZ[9]AB[aa:bc]AW[ee]AE[ii];B[dd];AddWhite[ff];W[gg])").unwrap();
    let setup = record.setup();
    assert_eq!(setup.len(), 6 + 1 + 1 + 1);
    assert_eq!(
        setup[0],
        SetupStone {
            node: 0,
            cell: cell(&record, "aa"),
            color: Some(Color::Black)
        }
    );
    assert!(setup[..6].iter().all(|s| s.color == Some(Color::Black)));
    assert_eq!(setup[7].color, None);
    assert_eq!(setup[8].node, 2);
    let game = record.replay().unwrap();
    assert_eq!(game.stone(cell(&record, "bc")), Some(Color::Black));
    assert_eq!(game.stone(cell(&record, "ff")), Some(Color::White));
    assert_eq!(game.stone(cell(&record, "gg")), Some(Color::White));
    assert_eq!(game.turn(), Some(Color::Black));
    // A setup that leaves a chain without liberties is refused.
    let bad = Record::from_sgf("(;GM[1]SZ[9]AB[ba][ab]AW[aa])").unwrap();
    assert_eq!(
        bad.replay().unwrap_err(),
        RecordError::BadSetup {
            node: 0,
            reason: toroid_rules::SetupError::NoLiberties
        }
    );
    assert_eq!(
        record.to_json().unwrap_err(),
        RecordError::SetupUnsupported { node: 0 }
    );
    let again = Record::from_sgf(&record.to_sgf()).unwrap();
    assert_eq!(again.setup(), setup);
}

#[test]
fn passes_are_empty_values_or_tt_on_small_go_boards() {
    let small = Record::from_sgf("(;GM[1]SZ[19];B[tt];W[])").unwrap();
    assert_eq!(small.move_notation(), ["pass", "pass"]);
    let large = Record::from_sgf("(;GM[1]SZ[21];B[tt];W[])").unwrap();
    assert_eq!(large.move_notation(), ["tt", "pass"]);
    assert!(matches!(
        Record::from_sgf("(;TG[torus]SZ[9];B[tt])"),
        Err(RecordError::BadProperty { node: 1, .. })
    ));
}

#[test]
fn bad_records_are_refused_with_reasons() {
    let err = |text: &str| Record::from_sgf(text).unwrap_err();
    assert_eq!(err("(;GM[2])"), RecordError::UnsupportedGame("2".into()));
    assert_eq!(
        err("(;GM[100])"),
        RecordError::UnsupportedGame("100".into())
    );
    assert_eq!(
        err("(;TG[chess])"),
        RecordError::UnknownGame(toroid_rules::UnknownGame("chess".into()))
    );
    assert!(matches!(err("(;SZ[x])"), RecordError::BadProperty { .. }));
    assert!(matches!(err("(;SZ[9:7])"), RecordError::BadProperty { .. }));
    assert!(matches!(err("(;SZ[99])"), RecordError::Params(_)));
    assert!(matches!(
        err("(;TG[torus]TP[colour=red])"),
        RecordError::Params(_)
    ));
    assert!(matches!(
        err("(;SZ[9];B[aa]W[bb])"),
        RecordError::BadProperty { .. }
    ));
    assert!(matches!(
        err("(;SZ[9];B[zz])"),
        RecordError::BadProperty { .. }
    ));
    assert!(matches!(
        err("(;SZ[9]AB[aa:zz])"),
        RecordError::BadProperty { .. }
    ));
    assert!(matches!(err("(;B[aa"), RecordError::Sgf(_)));

    let wrong = Record::from_sgf("(;GM[1]SZ[9];W[aa])").unwrap().replay();
    assert_eq!(
        wrong.unwrap_err(),
        RecordError::WrongColor {
            number: 1,
            mv: "aa".into(),
            color: Color::White,
            expected: Color::Black
        }
    );
    let illegal = Record::from_sgf("(;GM[1]SZ[9];B[aa];W[aa])")
        .unwrap()
        .replay();
    assert_eq!(
        illegal.unwrap_err(),
        RecordError::Illegal {
            number: 2,
            mv: "aa".into(),
            reason: IllegalMove::Occupied
        }
    );
}

#[test]
fn toroid_parameters_round_trip_through_tg_tp_and_rectangular_sizes() {
    let record = Record::from_sgf("(;GM[100]TG[hex-torus]SZ[10:6];B[aa];W[jf])").unwrap();
    assert_eq!(record.params().int("width"), Some(10));
    assert_eq!(record.params().int("height"), Some(6));
    let written = record.to_sgf();
    assert!(
        written.contains("GM[100]TG[hex-torus]SZ[10:6]"),
        "{written}"
    );
    let go = Record::from_sgf("(;GM[1]SZ[13]KM[6.5]RU[chinese]TP[topology=torus])").unwrap();
    assert_eq!(go.params().choice("topology"), Some("torus"));
    assert_eq!(go.params().choice("ko"), Some("positional"));
    assert_eq!(go.params().float("komi"), Some(6.5));
    let written = go.to_sgf();
    assert!(
        written.contains("KM[6.5]RU[Chinese]TP[topology=torus][scoring=area]"),
        "{written}"
    );
    let capture = Record::from_sgf("(;GM[1]TG[capture-go]SZ[7]TP[target=3])").unwrap();
    assert_eq!(capture.params().int("target"), Some(3));
    assert!(capture
        .to_sgf()
        .contains("GM[1]TG[capture-go]SZ[7]TP[topology=plane][target=3]"));
}

/// Go off the plane is not the Go that `GM[1]` promises (captures cross the seams): it is
/// written under toroid's own game number, and both forms are read.
#[test]
fn go_off_the_plane_is_not_written_as_plain_go() {
    for (text, game_number) in [
        ("(;GM[1]TG[go]SZ[9]TP[topology=plane])", "GM[1]"),
        ("(;GM[1]TG[go]SZ[9]TP[topology=torus])", "GM[100]"),
        ("(;GM[100]TG[go]SZ[9]TP[topology=torus])", "GM[100]"),
        ("(;GM[1]TG[capture-go]SZ[7]TP[topology=plane])", "GM[1]"),
        (
            "(;GM[100]TG[capture-go]SZ[7]TP[topology=cylinder])",
            "GM[100]",
        ),
        ("(;GM[1]TG[capture-go]SZ[7]TP[topology=klein])", "GM[100]"),
    ] {
        let record = Record::from_sgf(text).unwrap();
        let written = record.to_sgf();
        assert!(
            written.contains(&format!("{game_number}TG[")),
            "{text}: {written}"
        );
        assert_eq!(
            Record::from_sgf(&written).unwrap().params(),
            record.params()
        );
    }
    // Without TG, GM[100] names no rule set.
    assert!(Record::from_sgf("(;GM[100]SZ[9])").is_err());
}

#[test]
fn ctor_turns_end_with_an_end_value() {
    let ctor: GameKind = "ctor".parse().unwrap();
    let start = ctor.default_game();
    let moves: Vec<Move> = ["ee", "aa", "end", "bb"]
        .iter()
        .map(|m| Move::parse(m, start.topology()).unwrap())
        .collect();
    let record = Record::from_moves(ctor, start.params(), &moves).unwrap();
    assert_eq!(record.move_notation(), ["ee", "aa", "end", "bb"]);
    let written = record.to_sgf();
    assert!(
        written.contains(";B[ee]\n;W[aa]\n;W[end]\n;B[bb]"),
        "{written}"
    );
    let again = Record::from_sgf(&written).unwrap();
    assert_eq!(again.moves(), record.moves());
    assert_eq!(again.replay().unwrap().ply(), 4);
}

#[test]
fn json_records_read_and_write() {
    let text = r#"{"game": "go", "params": {"size": 5, "komi": 0.5, "scoring": "territory"},
        "black": "alice", "moves": ["cc", "pass", "pass"],
        "result": {"winner": "black", "reason": "two-passes", "margin": 4.5},
        "comments": [{"ply": 0, "text": "start"}, {"ply": 1, "text": "centre"}]}"#;
    let record = Record::read(text).unwrap();
    assert_eq!(record.params().int("size"), Some(5));
    assert_eq!(record.params().choice("scoring"), Some("territory"));
    assert_eq!(record.black.as_deref(), Some("alice"));
    assert_eq!(record.white, None);
    assert_eq!(record.nodes()[1].comment.as_deref(), Some("centre"));
    assert_eq!(record.moves()[1], (Color::White, Move::Pass));
    let game = record.replay().unwrap();
    assert_eq!(game.outcome().unwrap().winner, Some(Color::Black));
    let written = record.to_json().unwrap();
    let again = Record::read(&written).unwrap();
    assert_eq!(again.nodes(), record.nodes());
    assert_eq!(again.result, record.result);
    assert_eq!(again.params(), record.params());
    // The same record through SGF.
    let via_sgf = Record::read(&record.to_sgf()).unwrap();
    assert_eq!(via_sgf.nodes(), record.nodes());
    assert_eq!(via_sgf.result, record.result);

    let bad = |t: &str| Record::from_json(t).unwrap_err();
    assert!(matches!(bad("{"), RecordError::Json(_)));
    assert!(matches!(
        bad(r#"{"game": "go", "moves": ["zz"]}"#),
        RecordError::Json(_)
    ));
    assert!(matches!(
        bad(r#"{"game": "go", "moves": ["aa", "aa"]}"#),
        RecordError::Illegal { number: 2, .. }
    ));
    let list = bad(r#"{"game": "go", "params": {"size": [1]}, "moves": []}"#);
    assert!(matches!(list, RecordError::Params(_)), "{list:?}");
    assert!(list
        .to_string()
        .contains("'size' must be a number, a string or a boolean"));
    // A boolean names a yes-or-no choice, and only such a parameter takes one.
    let swap = |value: serde_json::Value| {
        let json = serde_json::json!({ "swap": value });
        let params = ParamsView::read(GameKind::HexTorus, json.as_object().unwrap());
        params.unwrap().choice("swap")
    };
    assert_eq!(swap(serde_json::json!(true)), Some("true"));
    assert_eq!(swap(serde_json::json!(false)), Some("false"));
    assert!(matches!(
        bad(r#"{"game": "go", "params": {"size": true}, "moves": []}"#),
        RecordError::Params(_)
    ));
    assert!(matches!(
        bad(r#"{"game": "go", "params": {"size": 9.5}, "moves": []}"#),
        RecordError::Params(_)
    ));
    assert!(matches!(
        bad(r#"{"game": "tic-tac-toe", "moves": []}"#),
        RecordError::UnknownGame(_)
    ));
}

#[test]
fn results_read_and_write_standard_re_values() {
    let re = read_sgf_result;
    assert_eq!(re("B+R"), Some(Outcome::resignation(Color::White)));
    assert_eq!(re("W+Resign"), Some(Outcome::resignation(Color::Black)));
    assert_eq!(re("W+T").unwrap().reason, Reason::Time);
    assert_eq!(
        re("B+F").unwrap().reason,
        Reason::Forfeit(Fault::Unspecified)
    );
    assert_eq!(re("W+12.5").unwrap().margin, Some(12.5));
    assert_eq!(re("W+12.5").unwrap().reason, Reason::Score);
    assert_eq!(re("0").unwrap().winner, None);
    assert_eq!(re("Draw").unwrap().winner, None);
    assert_eq!(re("Void"), Some(Outcome::abort()));
    assert_eq!(sgf_result(&Outcome::abort()), "Void");
    assert_eq!(re("?"), None);
    assert_eq!(re("B+nan"), None);
    // The winner says whose points they are; a negative margin contradicts it.
    assert_eq!(re("B+-.5"), None);
    assert_eq!(re("W+-0").unwrap().margin, Some(0.0));
    assert_eq!(
        sgf_result(&Outcome::forfeit(Color::Black, Fault::Crash)),
        "W+F"
    );
    assert_eq!(
        sgf_result(&Outcome::win(Color::Black, Reason::Surrounded)),
        "B+"
    );
    assert_eq!(
        sgf_result(&Outcome::by_score(3.0, 20.5, Reason::TwoPasses)),
        "W+17.5"
    );
    assert_eq!(sgf_result(&Outcome::draw(Reason::BoardFull)), "0");
}

#[test]
fn toroid_reasons_travel_in_to_and_unknown_ones_are_refused() {
    let read = |text: &str| Record::from_sgf(text).unwrap();
    let record = read("(;GM[1]SZ[5]RE[B+F]TO[illegal-move];B[aa])");
    let result = record.result.unwrap();
    assert_eq!(result, Outcome::forfeit(Color::White, Fault::IllegalMove));
    assert!(record.to_sgf().contains("RE[B+F]TO[illegal-move]"));
    let unknown = Record::from_sgf("(;GM[1]SZ[5]RE[W+]TO[checkmate])").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "node 0: bad TO[checkmate]: unknown end reason 'checkmate'"
    );
}

#[test]
fn player_names_read_the_same_from_sgf_and_json() {
    let sgf = Record::from_sgf("(;GM[1]SZ[9]PB[Ann  Lee\nthe 2nd]PW[Bo\tb])").unwrap();
    assert_eq!(sgf.black.as_deref(), Some("Ann Lee the 2nd"));
    assert_eq!(sgf.white.as_deref(), Some("Bo b"));
    let json = Record::from_json(
        r#"{"game": "go", "moves": [], "black": " Ann  Lee\r\nthe 2nd", "white": "Bo\tb"}"#,
    )
    .unwrap();
    assert_eq!((&json.black, &json.white), (&sgf.black, &sgf.white));
    let again = Record::from_sgf(&json.to_sgf()).unwrap();
    assert_eq!((&again.black, &again.white), (&sgf.black, &sgf.white));
}

/// Parameters for a random but valid game of `kind`, drawn from its own description: small
/// numbers (so boards are small and games short), any choice, derived values left to the
/// rules. Draws again where the rules refuse a combination (an odd hex-torus height).
fn random_params(kind: GameKind, rng: &mut Xoshiro256PlusPlus) -> Vec<String> {
    loop {
        let mut assignments = Vec::new();
        for spec in kind.params() {
            let value = match &spec.kind {
                _ if matches!(spec.default, ParamDefault::Derived(_)) => continue,
                ParamKind::Int { min, max } => {
                    rng.random_range(*min..=*max.min(&(min + 6))).to_string()
                }
                ParamKind::Float { min, max } => (f64::from(rng.random_range(-20..20)) / 2.0)
                    .clamp(*min, *max)
                    .to_string(),
                ParamKind::Choice(options) => {
                    options[rng.random_range(0..options.len())].to_string()
                }
            };
            assignments.push(format!("{}={value}", spec.name));
        }
        if kind.new_game(&assignments).is_ok() {
            return assignments;
        }
    }
}

/// A random game of `kind`: random parameters, random legal moves (to the end or not), a
/// result when it is over, and some comments.
fn random_record(kind: GameKind, seed: u64) -> (Record, toroid_rules::AnyGame) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = kind.new_game(&random_params(kind, &mut rng)).unwrap();
    let limit = if rng.random_bool(0.5) {
        usize::MAX
    } else {
        rng.random_range(0..30)
    };
    let mut moves = Vec::new();
    while moves.len() < limit {
        let Some(mv) = game.uniform_move(&mut rng) else {
            break;
        };
        game.play(mv).unwrap();
        moves.push(mv);
    }
    let mut record = Record::from_moves(kind, game.params(), &moves).unwrap();
    record.result = game.outcome();
    if rng.random_bool(0.5) {
        record.black = Some("Bläck ] \\ player".into());
        record.comment("a comment with ] and \\ and\nlines");
    }
    (record, game)
}

fn assert_same(a: &Record, b: &Record) {
    assert_eq!(a.kind(), b.kind());
    assert_eq!(a.params(), b.params());
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.nodes(), b.nodes());
    assert_eq!(a.result, b.result);
    assert_eq!((&a.black, &a.white), (&b.black, &b.white));
}

proptest! {
    #![proptest_config(toroid_testkit::cases(24))]

    #[test]
    fn random_games_of_every_rule_set_round_trip(seed in any::<u64>()) {
        for kind in GameKind::ALL {
            let (record, game) = random_record(kind, seed);
            let sgf = Record::from_sgf(&record.to_sgf()).unwrap();
            assert_same(&record, &sgf);
            let json = Record::from_json(&record.to_json().unwrap()).unwrap();
            assert_same(&record, &json);
            for copy in [&sgf, &json] {
                let replayed = copy.replay().unwrap();
                prop_assert_eq!(replayed.hash(), game.hash());
                prop_assert_eq!(replayed.outcome(), game.outcome());
            }
        }
    }

    #[test]
    fn variations_survive_a_round_trip(seed in any::<u64>(), at in 0usize..10) {
        let (record, _) = random_record(GameKind::default(), seed);
        let mut tree = record.to_sgf_tree();
        let line = tree.main_line();
        // A variation from the last node would become the main line's continuation.
        prop_assume!(line.len() > 1);
        let branch = line[at % (line.len() - 1)];
        let side = sgf::parse("(;B[aa]C[side](;W[bb])(;W[cc]))").unwrap();
        tree.graft(branch, &side[0], GameTree::ROOT);
        let text = sgf::write(&[tree.clone()]);
        let read = Record::from_sgf(&text).unwrap();
        prop_assert_eq!(read.moves(), record.moves());
        let again = read.to_sgf_tree();
        prop_assert_eq!(again.node_count(), tree.node_count());
        prop_assert_eq!(again.leaves(), tree.leaves());
        prop_assert_eq!(sgf::parse(&sgf::write(&[again])).unwrap()[0].node_count(), tree.node_count());
    }
}

/// What every text read as a record must satisfy. The reader refuses it with a typed error
/// that says why, or gives a record; the record replays, or the rules refuse it with a
/// typed error; and a record that replays writes back to an equal record that replays to
/// the same position: as SGF whole, as JSON what JSON holds (the main line, players,
/// result and comments; not setup stones, variations or other SGF properties).
fn check_record_text(text: &str) -> Result<(), TestCaseError> {
    let record = match Record::read(text) {
        Ok(record) => record,
        Err(error) => {
            prop_assert!(!error.to_string().is_empty());
            return Ok(());
        }
    };
    let game = match record.replay() {
        Ok(game) => game,
        Err(error) => {
            prop_assert!(!error.to_string().is_empty());
            return Ok(());
        }
    };
    let written = record.to_sgf();
    let sgf = Record::from_sgf(&written);
    prop_assert!(sgf.is_ok(), "{:?} from {}", sgf.err(), written);
    let sgf = sgf.unwrap();
    assert_same(&record, &sgf);
    prop_assert_eq!(sgf.replay().map(|g| g.hash()), Ok(game.hash()));
    prop_assert_eq!(sgf.to_sgf(), written);
    match record.to_json() {
        Ok(json) => {
            let again = Record::from_json(&json);
            prop_assert!(again.is_ok(), "{:?} from {}", again.err(), json);
            let again = again.unwrap();
            prop_assert_eq!(again.kind(), record.kind());
            prop_assert_eq!(again.params(), record.params());
            prop_assert_eq!(again.moves(), record.moves());
            prop_assert_eq!(&again.result, &record.result);
            prop_assert_eq!((&again.black, &again.white), (&record.black, &record.white));
            prop_assert_eq!(again.replay().map(|g| g.hash()), Ok(game.hash()));
            prop_assert_eq!(again.to_json(), Ok(json));
        }
        // JSON records hold no setup stones, and say so.
        Err(RecordError::SetupUnsupported { .. }) => prop_assert!(!record.setup().is_empty()),
        Err(error) => prop_assert!(false, "{error}"),
    }
    Ok(())
}

/// SGF-shaped text: properties toroid reads (and others) with values of any characters,
/// then moves, in one game tree or a damaged one.
fn sgf_like() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        proptest::sample::select(vec![
            "GM", "FF", "SZ", "TG", "TP", "KM", "RU", "RE", "AB", "AW", "AE", "PL", "C", "PB",
            "PW", "HA", "CA",
        ])
        .prop_map(str::to_string),
        "[A-Za-z]{1,3}",
    ];
    let value = prop_oneof![
        "[0-9]{1,3}",
        "[0-9]{1,2}:[0-9]{1,2}",
        "[a-zA-Z]{0,2}(:[a-zA-Z]{2})?",
        "[a-z-]{1,12}(=[a-z0-9.]{1,6})?",
        "[BW0]\\+[0-9.RTF]{0,4}",
        any::<String>().prop_map(|s| s.replace(['\\', ']'], "")),
    ];
    let property = (name, proptest::collection::vec(value, 1..4)).prop_map(|(name, values)| {
        format!(
            "{name}{}",
            values.iter().map(|v| format!("[{v}]")).collect::<String>()
        )
    });
    let node = proptest::collection::vec(property, 0..5).prop_map(|p| format!(";{}", p.concat()));
    let moves = proptest::collection::vec("[BW]\\[[a-zA-Z]{0,2}\\]", 0..12)
        .prop_map(|m| m.iter().map(|m| format!(";{m}")).collect::<String>());
    (node, moves, 0..4u8).prop_map(|(root, moves, shape)| match shape {
        0 => format!("({root}{moves})"),
        1 => format!("({root}{moves}(;B[aa])(;W[bb]))"),
        2 => format!("({root}{moves}"),
        _ => format!("(;GM[1]SZ[5])({root}{moves})"),
    })
}

/// A random game's record as SGF or JSON, with up to three bytes changed, removed or added.
fn damaged_record() -> impl Strategy<Value = String> {
    let kind = proptest::sample::select(GameKind::ALL.to_vec());
    let edits =
        proptest::collection::vec((any::<prop::sample::Index>(), 0..3u8, any::<u8>()), 1..4);
    (kind, any::<u64>(), any::<bool>(), edits).prop_map(|(kind, seed, json, edits)| {
        let (record, _) = random_record(kind, seed);
        let mut bytes = if json {
            record.to_json().unwrap()
        } else {
            record.to_sgf()
        }
        .into_bytes();
        for (at, edit, byte) in edits {
            let at = at.index(bytes.len() + 1);
            match edit {
                0 if at < bytes.len() => bytes[at] = byte,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, byte),
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

proptest! {
    #![proptest_config(toroid_testkit::cases(3000))]

    #[test]
    fn any_bytes_read_as_a_record_keep_the_invariants(bytes in any::<Vec<u8>>()) {
        check_record_text(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn any_text_read_as_a_record_keeps_the_invariants(text in any::<String>()) {
        check_record_text(&text)?;
    }

    #[test]
    fn sgf_like_text_read_as_a_record_keeps_the_invariants(text in sgf_like()) {
        check_record_text(&text)?;
    }

    #[test]
    fn damaged_records_keep_the_invariants(text in damaged_record()) {
        check_record_text(&text)?;
    }
}
