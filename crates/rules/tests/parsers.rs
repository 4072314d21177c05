//! The text parsers never panic on any input, and valid values survive a round trip
//! through their notation: `Move::parse`, `parse_point`, `Params::parse`; valid values
//! make a game.

use proptest::prelude::*;
use toroid_rules::cell::{parse_point, PointName, MAX_SIDE};
use toroid_rules::params::{ParamError, ParamKind};
use toroid_rules::{GameKind, Lattice, Move, ParamValue, Params, Position, Surface, Topology};

/// Strings that look like moves more often than arbitrary text does.
fn move_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z]{0,3}",
        Just("pass".to_string()),
        Just("end".to_string()),
        "(pass|end|PASS| pass|pass )",
    ]
}

fn board_side() -> impl Strategy<Value = usize> {
    1..=MAX_SIDE
}

/// A valid `KEY=VALUE` text for `kind`'s parameter `index`, with the value it stands for.
fn valid_assignment(kind: GameKind, index: usize) -> BoxedStrategy<(String, ParamValue)> {
    let spec = &kind.params()[index];
    let name = spec.name;
    match spec.kind.clone() {
        ParamKind::Int { min, max } => (min..=max)
            .prop_map(move |v| (format!("{name}={v}"), ParamValue::Int(v)))
            .boxed(),
        ParamKind::Float { min, max } => (min..=max)
            .prop_map(move |v| (format!("{name}={v}"), ParamValue::Float(v)))
            .boxed(),
        ParamKind::Choice(options) => proptest::sample::select(options)
            .prop_map(move |v| (format!("{name}={v}"), ParamValue::Choice(v)))
            .boxed(),
    }
}

/// A rule set and a valid value for some of its parameters.
fn valid_assignments() -> impl Strategy<Value = (GameKind, Vec<(String, ParamValue)>)> {
    proptest::sample::select(GameKind::ALL.to_vec()).prop_flat_map(|kind| {
        let n = kind.params().len();
        proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 0..=n).prop_flat_map(
            move |indices| {
                let values: Vec<_> = indices
                    .into_iter()
                    .map(|i| valid_assignment(kind, i))
                    .collect();
                (Just(kind), values)
            },
        )
    })
}

proptest! {
    #![proptest_config(toroid_testkit::cases(2000))]

    #[test]
    fn move_parse_never_panics_and_reads_only_its_own_notation(
        text in move_like(),
        w in board_side(),
        h in board_side(),
    ) {
        let topology = Topology::new(Lattice::Square4, Surface::Plane, w, h);
        if let Ok(mv) = Move::parse(&text, &topology) {
            prop_assert_eq!(mv.notation(&topology).to_string(), text);
            if let Some(cell) = mv.cell() {
                prop_assert!(cell.index() < topology.len());
            }
        }
    }

    #[test]
    fn every_cell_round_trips_through_its_notation(
        (w, h, x, y) in (board_side(), board_side())
            .prop_flat_map(|(w, h)| (Just(w), Just(h), 0..w, 0..h)),
    ) {
        let topology = Topology::new(Lattice::HexOddR, Surface::Torus, w, h);
        let cell = topology.cell_at(x, y).unwrap();
        let text = Move::Place(cell).notation(&topology).to_string();
        prop_assert_eq!(Move::parse(&text, &topology), Ok(Move::Place(cell)));
        prop_assert_eq!(parse_point(&text, w, h), Ok((x, y)));
    }

    #[test]
    fn parse_point_never_panics_and_accepts_only_points_on_the_board(
        text in move_like(),
        w in 0..=60usize,
        h in 0..=60usize,
    ) {
        if let Ok((x, y)) = parse_point(&text, w, h) {
            prop_assert!(x < w && y < h);
            prop_assert_eq!(PointName(x, y).to_string(), text);
        }
    }

    #[test]
    fn params_parse_never_panics_on_any_assignments(
        kind in proptest::sample::select(GameKind::ALL.to_vec()),
        assignments in proptest::collection::vec(
            prop_oneof![
                any::<String>(),
                "(size|width|height|komi|ko|scoring|topology|target|max_moves|scoring_phase|x)=?[-+0-9a-z.eE]{0,6}",
            ],
            0..4,
        ),
    ) {
        if let Ok(params) = Params::parse(kind.params(), &assignments) {
            for (spec, (name, value)) in kind.params().iter().zip(params.iter()) {
                prop_assert_eq!(spec.name, name);
                if let Some(value) = value {
                    prop_assert_eq!(spec.parse(&value.to_string()), Ok(value.clone()));
                }
            }
        }
    }

    #[test]
    fn valid_parameter_values_round_trip((kind, assignments) in valid_assignments()) {
        let texts: Vec<&str> = assignments.iter().map(|(t, _)| t.as_str()).collect();
        let params = Params::parse(kind.params(), &texts).unwrap();
        for (text, value) in &assignments {
            let name = text.split_once('=').unwrap().0;
            let parsed = params.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.cloned());
            prop_assert_eq!(parsed.as_ref(), Some(value));
            // The value's own text reads back as the same value.
            let spec = kind.params().iter().find(|p| p.name == name).unwrap();
            prop_assert_eq!(spec.parse(&value.to_string()), Ok(value.clone()));
        }
    }
}

proptest! {
    // Setting up a game builds its topology; fewer cases keep this quick.
    #![proptest_config(toroid_testkit::cases(300))]

    /// Every value within its parameter's range makes a game, except the one rule no range
    /// can say: hex-torus rows come in pairs and M-Torus needs a middle row.
    #[test]
    fn valid_parameter_values_make_a_game(
        (kind, assignments) in valid_assignments(),
    ) {
        let texts: Vec<&str> = assignments.iter().map(|(t, _)| t.as_str()).collect();
        let height = assignments.iter().find_map(|(text, value)| match value {
            ParamValue::Int(h) if text.starts_with("height=") => Some(*h),
            _ => None,
        });
        let refusal = match (kind, height) {
            (GameKind::HexTorus, Some(h)) if h % 2 != 0 => {
                Some(format!("height must be even on hex-torus, got {h}"))
            }
            (GameKind::MTorus, Some(h)) if h % 2 == 0 => {
                Some(format!("height must be odd on m-torus, got {h}"))
            }
            _ => None,
        };
        match (kind.new_game(&texts), refusal) {
            (Ok(game), None) => prop_assert_eq!(game.kind(), kind),
            (Err(error), Some(words)) => prop_assert_eq!(error, ParamError::Invalid(words)),
            (result, refusal) => prop_assert!(false, "{:?} for {:?}, expected {:?}", result.map(|g| g.kind()), texts, refusal),
        }
    }
}

/// Every rule set reads its parameters into its own config, so parameters of another rule
/// set are refused with a reason, never a panic.
#[test]
fn constructors_refuse_parameters_of_another_rule_set() {
    use toroid_rules::games::capture_go::CAPTURE_GO_PARAMS;
    use toroid_rules::games::go::GO_PARAMS;
    use toroid_rules::games::{Ctor, Go, HexTorus, MTorus, Torus};
    let torus = Params::defaults(Torus::PARAMS);
    let hex = Params::defaults(HexTorus::PARAMS);
    let unknown = |name: &str, known: &str| ParamError::Unknown {
        name: name.into(),
        known: known.into(),
    };
    assert_eq!(HexTorus::new(&torus).err(), Some(unknown("width", "size")));
    assert_eq!(MTorus::new(&torus).err(), Some(unknown("width", "size")));
    assert_eq!(
        Torus::new(&hex).err(),
        Some(unknown("size", "width, height, swap"))
    );
    assert_eq!(
        Ctor::new(&hex).err(),
        Some(unknown("size", "width, height, swap"))
    );
    let capture_go = Params::defaults(CAPTURE_GO_PARAMS);
    assert_eq!(
        Go::go(&capture_go).err(),
        Some(unknown("max_moves", "size, topology, target"))
    );
    assert_eq!(
        Go::capture_go(&Params::defaults(GO_PARAMS)).err(),
        Some(unknown(
            "target",
            "size, topology, komi, scoring, ko, max_moves, scoring_phase"
        ))
    );
    // Through the registry, parameters of the wrong rule set are refused as a whole, even
    // where their names match (torus and ctor both take `size`).
    assert!(GameKind::Ctor
        .start(&Params::defaults(Torus::PARAMS))
        .is_err());
    assert!(GameKind::Torus
        .start(&Params::defaults(Torus::PARAMS))
        .is_ok());
}

#[test]
fn moves_number_cells_first_then_pass_end_and_swap() {
    let cells = 81;
    for index in 0..cells + Move::BEYOND_CELLS {
        let mv = Move::from_index(index, cells).unwrap();
        assert_eq!(mv.index(cells), index, "{mv:?}");
    }
    assert_eq!(Move::from_index(cells, cells), Some(Move::Pass));
    assert_eq!(Move::from_index(cells + 2, cells), Some(Move::Swap));
    assert_eq!(Move::from_index(cells + Move::BEYOND_CELLS, cells), None);
}
