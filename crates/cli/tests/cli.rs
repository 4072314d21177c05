//! The `toroid` binary as users and scripts see it: JSON shapes, exit statuses, one-line
//! errors.

use std::process::{Command, Output};

use serde_json::Value;

fn toroid(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toroid"))
        .args(args)
        .output()
        .expect("the toroid binary runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = toroid(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "toroid {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn json_of(args: &[&str]) -> Value {
    let text = stdout_of(args);
    assert_eq!(text.lines().count(), 1, "JSON is one line: {text}");
    serde_json::from_str(&text).expect("valid JSON")
}

/// Runs a command that must be refused; returns its one line of standard error.
fn refused(args: &[&str]) -> String {
    let out = toroid(args);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 errors");
    assert_eq!(out.status.code(), Some(2), "toroid {args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "toroid {args:?} printed to stdout");
    assert!(!stderr.contains("panicked"), "toroid {args:?}: {stderr}");
    assert!(stderr.ends_with('\n'), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "toroid {args:?}: {stderr}");
    assert!(stderr.starts_with("toroid: "), "{stderr}");
    stderr.trim_end().to_string()
}

fn replay(game: &str, params: &[&str], moves: &[&str]) -> Value {
    let mut args = vec!["replay", game, "--json"];
    for p in params {
        args.extend(["-p", p]);
    }
    args.extend(moves);
    json_of(&args)
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string"))
        .collect()
}

#[test]
fn games_json_lists_the_six_rule_sets_with_their_parameters() {
    let games = json_of(&["games", "--json"]);
    let names: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["torus", "hex-torus", "m-torus", "ctor", "capture-go", "go"]
    );
    let go = &games[5];
    let params: Vec<&str> = go["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        params,
        [
            "size",
            "topology",
            "komi",
            "scoring",
            "ko",
            "max_moves",
            "scoring_phase"
        ]
    );
    let size = &go["params"][0];
    assert_eq!(size["kind"], "int");
    assert_eq!(size["default"], 9);
    assert_eq!(
        (size["min"].as_i64(), size["max"].as_i64()),
        (Some(2), Some(25))
    );
    assert_eq!(go["params"][2]["default"], 7.5);
    assert_eq!(
        strings(&go["params"][1]["choices"]),
        [
            "plane",
            "cylinder",
            "mobius",
            "torus",
            "klein",
            "projective"
        ]
    );
    let max_moves = &go["params"][5];
    assert_eq!(max_moves["default"], "3 × number of points");
    assert_eq!(max_moves["default_derived"], true);
    for game in games.as_array().unwrap() {
        // The house levels with the ratings they enter the pools at: the search ladder
        // climbs, and `zero` sits inside it.
        let levels = game["levels"].as_array().unwrap();
        let names: Vec<&str> = levels.iter().map(|l| l["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            ["random", "greedy", "beginner", "casual", "strong", "max", "zero"],
            "{game}"
        );
        let ratings: Vec<f64> = levels
            .iter()
            .map(|l| l["rating"].as_f64().unwrap())
            .collect();
        assert!(ratings[..6].windows(2).all(|w| w[0] < w[1]), "{ratings:?}");
        assert!(
            ratings[1] < ratings[6] && ratings[6] < ratings[5],
            "{ratings:?}"
        );
        assert!(!game["summary"].as_str().unwrap().is_empty());
        for p in game["params"].as_array().unwrap() {
            assert!(!p["help"].as_str().unwrap().is_empty(), "{p}");
        }
    }
}

#[test]
fn games_text_shows_every_rule_set_and_parameter() {
    let text = stdout_of(&["games"]);
    for name in ["torus", "hex-torus", "m-torus", "ctor", "capture-go", "go"] {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{name}: "))),
            "{text}"
        );
    }
    assert!(text.contains("3 × number of points"), "{text}");
    assert!(
        text.contains("  house levels and their ratings: random 600, greedy "),
        "{text}"
    );
    assert!(
        text.contains("one of simple, positional, situational"),
        "{text}"
    );
}

#[test]
fn topology_counts_cells_and_directed_edges() {
    let cases: &[(&str, &[&str], usize, usize)] = &[
        // 2 · (9·8 horizontal + 9·8 vertical) on the plane.
        ("go", &[], 81, 2 * 144),
        ("capture-go", &["size=5"], 25, 2 * 40),
        // The cylinder adds the 9 wrapped steps of each row.
        ("go", &["topology=cylinder"], 81, 2 * (144 + 9)),
        ("go", &["topology=torus"], 81, 81 * 4),
        ("torus", &[], 81, 81 * 4),
        ("ctor", &[], 100, 100 * 8),
        ("hex-torus", &[], 64, 64 * 6),
        // Two cells have 4 neighbours and two have 5 (docs/rules.md); 81 − 480/2 + 160 = 1.
        ("m-torus", &[], 81, 81 * 6 - 2 * 2 - 2),
    ];
    for (game, params, cells, edges) in cases {
        let mut args = vec!["topology", game, "--json"];
        for p in *params {
            args.extend(["-p", p]);
        }
        let t = json_of(&args);
        assert_eq!(
            t["cells"].as_array().unwrap().len(),
            *cells,
            "{game} {params:?}"
        );
        assert_eq!(
            t["edges"].as_array().unwrap().len(),
            *edges,
            "{game} {params:?}"
        );
    }
}

#[test]
fn topology_lists_cells_row_by_row_and_edges_both_ways() {
    for (game, orientable) in [
        ("torus", true),
        ("ctor", true),
        ("hex-torus", true),
        ("go", true),
        ("m-torus", false),
    ] {
        let t = json_of(&["topology", game, "--json"]);
        let cells = t["cells"].as_array().unwrap();
        let width = cells.iter().map(|c| c[0].as_u64().unwrap()).max().unwrap() + 1;
        for (i, c) in cells.iter().enumerate() {
            let (x, y) = (c[0].as_u64().unwrap(), c[1].as_u64().unwrap());
            assert_eq!(y * width + x, i as u64, "{game}");
        }
        let edges: Vec<[i64; 4]> = t["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| [0, 1, 2, 3].map(|k| e[k].as_i64().unwrap()))
            .collect();
        for &[i, j, cx, cy] in &edges {
            assert_ne!(i, j, "{game}: no cell neighbours itself");
            let back = edges.iter().find(|e| e[0] == j && e[1] == i);
            let back = back.unwrap_or_else(|| panic!("{game}: {i}→{j} has no way back"));
            if orientable {
                assert_eq!((back[2], back[3]), (-cx, -cy), "{game}: {i}→{j}");
            }
        }
    }
}

#[test]
fn topology_text_summarises_the_graph() {
    let text = stdout_of(&["topology", "torus", "-p", "size=5"]);
    assert!(
        text.starts_with("torus 5×5, square lattice on the torus: 25 cells, 100 directed edges\n")
    );
    // Column e steps right across the seam to column a.
    assert!(text.contains("\nea: ee(+0,-1) aa(+1,+0) eb da\n"), "{text}");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["replay", "chess"], "toroid: unknown game 'chess'"),
        (
            &["replay", "go", "-p", "size=99"],
            "toroid: go: bad value '99' for parameter 'size': expected an integer from 2 to 25",
        ),
        (
            &["replay", "go", "-p", "foo=1"],
            "toroid: go: unknown parameter 'foo'",
        ),
        (
            &["replay", "go", "-p", "size"],
            "toroid: go: 'size' is not KEY=VALUE",
        ),
        (
            &["replay", "go", "-p", "size=9", "-p", "size=9"],
            "toroid: go: parameter 'size' is given twice",
        ),
        (
            &["replay", "go", "-p", "komi=nan"],
            "toroid: go: bad value 'nan'",
        ),
        (
            &["replay", "go", "-p", "topology=sphere"],
            "toroid: go: bad value 'sphere'",
        ),
        (
            &["replay", "hex-torus", "-p", "height=5"],
            "toroid: hex-torus: ",
        ),
        (
            &["replay", "m-torus", "-p", "height=8"],
            "toroid: m-torus: ",
        ),
        (&["replay", "go", "e5"], "toroid: move 1 'e5': not a move"),
        (
            &["replay", "go", "zz"],
            "toroid: move 1 'zz': off the board: x=25, y=25 on a 9×9 board",
        ),
        (&["replay", "go", ""], "toroid: move 1 '': empty move"),
        (
            &["replay", "go", "a\nb"],
            "toroid: move 1 'a\\nb': not a move",
        ),
        (
            &["replay", "go", "--frobnicate"],
            "toroid: unexpected argument '--frobnicate'",
        ),
        (
            &["replay"],
            "toroid: name a game (see 'toroid games') or give --record FILE",
        ),
        (
            &["replay", "--record", "/no/such/record.sgf"],
            "toroid: cannot read '/no/such/record.sgf'",
        ),
        (
            &["replay", "go", "ee", "--save", "game.txt"],
            "toroid: cannot tell the record format of 'game.txt'",
        ),
        (
            &["frobnicate"],
            "toroid: unrecognized subcommand 'frobnicate'",
        ),
        (&["games", "--jsn"], "toroid: unexpected argument '--jsn'"),
        (
            &["topology", "chess", "--json"],
            "toroid: unknown game 'chess'",
        ),
        (
            &["topology", "go", "-p", "size=1"],
            "toroid: go: bad value '1'",
        ),
        (&["bench", "chess"], "toroid: unknown game 'chess'"),
        (&["bench", "-p", "size=9"], "toroid: -p needs a single game"),
        (
            &["bench", "go", "--seconds", "0"],
            "toroid: --seconds must be",
        ),
        (
            &["bench", "go", "--seconds", "soon"],
            "toroid: invalid value 'soon'",
        ),
        (
            &["bench", "go", "--policy", "clever"],
            "toroid: invalid value 'clever'",
        ),
        (
            &["train", "hex-torus", "--value-mix", "1.5"],
            "toroid: invalid value '1.5' for '--value-mix <VALUE_MIX>': 1.5 is not a share from 0 to 1",
        ),
    ];
    for (args, start) in cases {
        let line = refused(args);
        assert!(line.starts_with(start), "toroid {args:?}: {line}");
    }
}

#[test]
fn help_and_version_succeed() {
    assert!(stdout_of(&["--help"]).contains("replay"));
    assert!(stdout_of(&["replay", "--help"]).contains("KEY=VALUE"));
    assert!(stdout_of(&["--version"]).starts_with("toroid "));
}

// ---- Replays: these need the rule sets themselves. ----

#[test]
fn an_illegal_move_names_its_number_the_move_and_why() {
    assert_eq!(
        refused(&["replay", "go", "ee", "ee"]),
        "toroid: move 2 'ee': the cell is occupied"
    );
    assert_eq!(
        refused(&["replay", "go", "ab", "aa", "ba", "aa"]),
        "toroid: move 4 'aa': suicide: the stone's own chain would have no liberties"
    );
    assert!(refused(&["replay", "go", "pass", "pass", "ee"])
        .starts_with("toroid: move 3 'ee': the game is over"));
    assert!(refused(&["replay", "torus", "ee", "ee"]).starts_with("toroid: move 2 'ee': "));
    assert!(refused(&["replay", "hex-torus", "pass"]).starts_with("toroid: move 1 'pass': "));
    assert!(refused(&["replay", "m-torus", "aa", "end"]).starts_with("toroid: move 2 'end': "));
    assert!(refused(&["replay", "ctor", "aa", "end"]).starts_with("toroid: move 2 'end': "));
}

#[test]
fn replay_json_of_a_fresh_go_game() {
    let g = replay("go", &[], &[]);
    assert_eq!(g["game"], "go");
    assert_eq!(
        g["params"],
        serde_json::json!({"size": 9, "topology": "plane", "komi": 7.5, "scoring": "area",
                           "ko": "simple", "max_moves": 243, "scoring_phase": "none"})
    );
    assert_eq!(
        (g["width"].as_u64(), g["height"].as_u64()),
        (Some(9), Some(9))
    );
    assert_eq!(strings(&g["board"]), vec![".........".to_string(); 9]);
    assert_eq!(g["to_move"], "black");
    assert_eq!(g["over"], false);
    assert_eq!(g["winner"], Value::Null);
    assert_eq!(g["reason"], "");
    assert_eq!(g["captures"], serde_json::json!({"black": 0, "white": 0}));
    assert_eq!(g["legal_moves"].as_array().unwrap().len(), 82);
    assert_eq!(g["ply"], 0);
}

#[test]
fn replay_json_of_go_moves_and_captures() {
    let g = replay("go", &[], &["ee"]);
    assert_eq!(g["board"][4], "....b....");
    assert_eq!(g["to_move"], "white");
    let legal = strings(&g["legal_moves"]);
    assert_eq!(legal.len(), 81);
    assert!(legal.contains(&"pass") && !legal.contains(&"ee"));

    let g = replay("go", &[], &["ab", "aa", "ba"]);
    assert_eq!(g["board"][0], ".b.......");
    assert_eq!(g["board"][1], "b........");
    assert_eq!(g["captures"], serde_json::json!({"black": 1, "white": 0}));
    assert_eq!(strings(&g["moves"]), ["ab", "aa", "ba"]);
    assert_eq!(g["ply"], 3);
}

#[test]
fn go_ends_on_two_passes_with_the_score() {
    let g = replay("go", &[], &["pass", "pass"]);
    assert_eq!(g["over"], true);
    assert_eq!(g["to_move"], Value::Null);
    assert_eq!(g["winner"], "white");
    assert_eq!(g["reason"], "two-passes");
    assert_eq!(g["score"], serde_json::json!({"black": 0.0, "white": 7.5}));
    assert_eq!(g["legal_moves"], serde_json::json!([]));

    let g = replay("go", &["komi=0"], &["ee", "pass", "pass"]);
    assert_eq!(g["winner"], "black");
    assert_eq!(g["score"], serde_json::json!({"black": 81.0, "white": 0.0}));
}

#[test]
fn go_ko_rules_refuse_the_immediate_retake() {
    // Black takes the ko at cb; white may not retake at once.
    let ko = ["ba", "ca", "ab", "db", "bc", "cc", "ii", "bb", "cb", "bb"];
    let simple = refused(&[&["replay", "go"], &ko[..]].concat());
    assert!(simple.starts_with("toroid: move 10 'bb': ko"), "{simple}");
    let positional = refused(&[&["replay", "go", "-p", "ko=positional"], &ko[..]].concat());
    assert!(
        positional.starts_with("toroid: move 10 'bb': superko"),
        "{positional}"
    );
    let g = replay("go", &[], &ko[..9]);
    assert_eq!(g["board"][1], "b.bw.....");
    assert!(!strings(&g["legal_moves"]).contains(&"bb"));
}

#[test]
fn capture_go_ends_at_the_target() {
    let g = replay("capture-go", &["target=1"], &["ab", "aa", "ba"]);
    assert_eq!(g["over"], true);
    assert_eq!(g["winner"], "black");
    assert_eq!(g["reason"], "capture-target");
    assert_eq!(g["score"], Value::Null);
    let g = replay("capture-go", &[], &["ab", "aa", "ba"]);
    assert_eq!(g["over"], false);
}

#[test]
fn torus_is_won_by_surrounding_a_stone() {
    let g = replay("torus", &[], &["de", "ee", "fe", "aa", "ed", "ia", "ef"]);
    assert_eq!(g["over"], true);
    assert_eq!(g["winner"], "black");
    assert_eq!(g["reason"], "surrounded");
    assert!(
        strings(&g["highlight"]).contains(&"ee"),
        "{}",
        g["highlight"]
    );
    // The surrounding stones wrap: a stone on the edge has neighbours across the seams.
    let g = replay("torus", &["size=5"], &["ea", "aa"]);
    assert_eq!(
        g["board"],
        serde_json::json!(["w...b", ".....", ".....", ".....", "....."])
    );
}

#[test]
fn hex_torus_ring_wins_for_black() {
    // Black fills column a top to bottom (a ring); white builds most of column e.
    let moves = [
        "aa", "ea", "ab", "eb", "ac", "ec", "ad", "ed", "ae", "ee", "af", "ef", "ag", "eg", "ah",
    ];
    let g = replay("hex-torus", &[], &moves[..14]);
    assert_eq!(g["over"], false);
    assert_eq!(g["legal_moves"].as_array().unwrap().len(), 64 - 14);
    let g = replay("hex-torus", &[], &moves);
    assert_eq!(g["over"], true);
    assert_eq!(g["winner"], "black");
    assert_eq!(g["reason"], "ring");
}

#[test]
fn m_torus_loop_through_one_seam_wins() {
    // Column e of a 9-wide board continues across the reversed top/bottom seam into itself.
    let moves = [
        "ea", "aa", "eb", "ab", "ec", "ac", "ed", "ad", "ee", "ae", "ef", "af", "eg", "ag", "eh",
        "ah", "ei",
    ];
    let g = replay("m-torus", &[], &moves[..16]);
    assert_eq!(g["over"], false);
    let g = replay("m-torus", &[], &moves);
    assert_eq!(g["over"], true);
    assert_eq!(g["winner"], "black");
    assert_eq!(g["reason"], "seam-loop");
}

#[test]
fn ctor_turns_and_turnovers() {
    let g = replay("ctor", &[], &["aa"]);
    assert_eq!(g["to_move"], "white");
    let g = replay("ctor", &[], &["aa", "bb"]);
    assert_eq!(g["to_move"], "white");
    let legal = strings(&g["legal_moves"]);
    assert!(legal.contains(&"end") && legal.len() == 98 + 1, "{legal:?}");
    let g = replay("ctor", &[], &["aa", "bb", "end"]);
    assert_eq!(g["to_move"], "black");
    // Five black neighbours turn the white stone at bb over.
    let g = replay(
        "ctor",
        &[],
        &["aa", "bb", "jj", "ba", "ca", "ii", "hh", "ab"],
    );
    assert_eq!(g["board"][1], "bw........");
    let g = replay(
        "ctor",
        &[],
        &["aa", "bb", "jj", "ba", "ca", "ii", "hh", "ab", "cb"],
    );
    assert_eq!(g["board"][1], "bbb.......");
    assert_eq!(g["captures"]["black"], 1);
    assert_eq!(g["to_move"], "white");
}

#[test]
fn replay_text_shows_the_board_the_turn_and_the_outcome() {
    let text = stdout_of(&["replay", "torus", "-p", "size=5", "aa"]);
    let expected_board = "      a b c d e
    , , , , , , ,
 a  ,(X). . . . x
 b  , . . . . . ,
 c  , . . . . . ,
 d  , . . . . . ,
 e  , . . . . . ,
    , x , , , , x
";
    assert!(text.starts_with(expected_board), "{text}");
    assert!(
        text.contains("\ntorus 5×5 on the torus (size=5)\nmove 2: white to move\n"),
        "{text}"
    );
    let text = stdout_of(&["replay", "go", "pass", "pass"]);
    assert!(
        text.contains("game over after 2 moves: white wins by 7.5: two consecutive passes"),
        "{text}"
    );
    assert!(text.contains("score: black 0, white 7.5"), "{text}");
    let text = stdout_of(&["replay", "m-torus", "-p", "width=5", "-p", "height=5", "ee"]);
    // Across the reversed seams ee = (4, 4) reappears above aa, left of aa, and beyond the
    // bottom-right corner (glued across both seams).
    assert!(
        text.starts_with("      a b c d e\n     , x , , , , ,\n a  x . . . . . ,\n"),
        "{text}"
    );
    assert!(
        text.contains("\n e  , . . . .(X),\n     , , , , , , x\n"),
        "{text}"
    );
    assert!(
        text.contains("\nm-torus 5×5 on the projective plane (width=5, height=5, swap=false)\n"),
        "{text}"
    );
}

#[test]
fn bench_prints_one_playouts_per_second_line_per_rule_set() {
    let per_second = |text: &str| {
        text.lines()
            .filter(|l| {
                l.strip_suffix(" playouts/s")
                    .is_some_and(|n| n.parse::<f64>().is_ok_and(|v| v > 0.0))
            })
            .count()
    };
    let text = stdout_of(&["bench", "go", "--seconds", "0.2", "--seed", "7"]);
    assert_eq!(per_second(&text), 1, "{text}");
    assert!(text.contains(" moves/s\n"), "{text}");
    let text = stdout_of(&["bench", "go", "--seconds", "0.1", "--policy", "uniform"]);
    assert_eq!(per_second(&text), 1, "{text}");
    let text = stdout_of(&["bench", "all", "--seconds", "0.05"]);
    assert_eq!(per_second(&text), 6, "{text}");
}

#[test]
fn bench_network_measures_evaluations_and_both_search_batches() {
    let network = format!(
        "{}/../search/data/networks/hex-torus.safetensors",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = stdout_of(&[
        "bench",
        "hex-torus",
        "--network",
        &network,
        "--seconds",
        "0.4",
    ]);
    let positive = |line: &str, suffix: &str| {
        line.split_once(suffix)
            .and_then(|(n, _)| n.parse::<f64>().ok())
            .is_some_and(|v| v > 0.0)
    };
    for batch in [1, 8] {
        let evaluations = format!(" evaluations/s at batch {batch}");
        let search = format!(" simulations/s of the search with leaves in batches of {batch} ");
        for suffix in [evaluations, search] {
            assert!(
                text.lines().any(|l| positive(l, &suffix)),
                "{suffix}: {text}"
            );
        }
    }
    let level = " simulations/s of the search with leaves in batches of 1 and playouts";
    assert!(text.lines().any(|l| positive(l, level)), "{text}");
}

#[test]
fn bench_mcts_prints_simulations_per_second() {
    let text = stdout_of(&[
        "bench",
        "go",
        "-p",
        "size=5",
        "--mcts",
        "--threads",
        "2",
        "--policy",
        "uniform",
        "--seconds",
        "0.1",
    ]);
    assert!(
        text.contains(", MCTS, 2 threads, uniform policy, "),
        "{text}"
    );
    let rate = text
        .lines()
        .find_map(|l| l.strip_suffix(" simulations/s"))
        .and_then(|n| n.parse::<f64>().ok());
    assert!(rate.is_some_and(|r| r > 0.0), "{text}");
    let text = stdout_of(&[
        "bench",
        "hex-torus",
        "-p",
        "width=4",
        "-p",
        "height=4",
        "--mcts",
        "--no-patterns",
        "--seconds",
        "0.1",
    ]);
    assert!(
        text.contains(", MCTS, 1 thread, playout policy, no patterns, "),
        "{text}"
    );
    assert!(text.contains(" simulations/s\n"), "{text}");
    for (args, start) in [
        (
            &["bench", "go", "--threads", "2"][..],
            "toroid: the following required arguments were not provided: --mcts",
        ),
        (
            &["bench", "go", "--mcts", "--threads", "0"][..],
            "toroid: invalid value '0'",
        ),
        (
            &["bench", "go", "--no-patterns"][..],
            "toroid: the following required arguments were not provided: --mcts",
        ),
    ] {
        let line = refused(args);
        assert!(line.starts_with(start), "toroid {args:?}: {line}");
    }
}

#[test]
fn patterns_learn_from_records_and_refuse_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("go");
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let records = path(&folder);
    stdout_of(&[
        "match",
        "go",
        "-p",
        "size=7",
        "--black",
        "greedy",
        "--white",
        "random",
        "--games",
        "4",
        "--seed",
        "3",
        "--json",
        "--records",
        &records,
    ]);
    let out = toroid(&["patterns", &records, "--holdout", "2", "--iterations", "5"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let patterns = toroid_search::learned::Patterns::parse(&text).unwrap();
    assert!(text.starts_with("# Move pattern strengths of go"), "{text}");
    assert!(text.contains("held-out positions"), "{text}");
    assert!(!patterns.is_empty());
    // The header also goes to standard error, for the one who runs it.
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 games"));

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(refused(&["patterns", &path(&empty)]).contains("no game records found"));
    let damaged = dir.path().join("damaged.sgf");
    std::fs::write(&damaged, "(;GM[1]FF[4]SZ[9];B[ee").unwrap();
    assert!(refused(&["patterns", &path(&damaged)]).contains("damaged.sgf"));
    stdout_of(&[
        "replay",
        "hex-torus",
        "aa",
        "--save",
        &path(&folder.join("zz-hex.sgf")),
    ]);
    assert!(refused(&["patterns", &records]).contains("one rule set at a time"));
    assert!(refused(&["patterns", &records, "--iterations", "0"]).contains("iterations"));
}
