//! The codec's tests: lines as ATSA's host and tomatene send them, typed errors for the
//! malformed ones, and every command and reply read back from the line it writes.

use super::*;
use crate::atsi::error::AtsiError;
use crate::atsi::square::AtsiSquare;
use proptest::prelude::*;

#[test]
fn host_commands_read_as_atsas_host_sends_them() {
    use HostCommand as H;
    let cases = [
        (
            "atsiinit v0",
            H::AtsiInit {
                version: "v0".into(),
            },
        ),
        (
            "atsiinit v00",
            H::AtsiInit {
                version: "v00".into(),
            },
        ),
        ("identify", H::Identify),
        (
            "time 900 1",
            H::Time {
                base: 900.0,
                increment: 1.0,
            },
        ),
        (
            "time 60",
            H::Time {
                base: 60.0,
                increment: 0.0,
            },
        ),
        ("player 1", H::Player(1)),
        ("startgame initial", H::StartGame(StartPos::Initial)),
        ("win", H::Win(None)),
        ("loss time forfeit", H::Loss(Some("time forfeit".into()))),
        ("draw", H::Draw(None)),
        ("quit", H::Quit),
        ("eval", H::Eval),
        (
            "setparam policy greedy",
            H::SetParam {
                name: "policy".into(),
                value: "greedy".into(),
            },
        ),
    ];
    for (line, want) in cases {
        assert_eq!(H::parse(line), Ok(want.clone()), "{line}");
        assert_eq!(H::parse(&want.to_line()), Ok(want), "{line}");
    }
    // Their host writes its clocks as JavaScript numbers, and may send a \r.
    let H::OpMove { mv, time, op_time } = H::parse("opmove 18i 18m 899.2345678 -0.5\r").unwrap()
    else {
        panic!()
    };
    assert_eq!(mv.to_string(), "18i 18m");
    assert_eq!((time, op_time), (899.2345678, -0.5));
    let H::StartGame(StartPos::Tsfen(t)) = H::parse("startgame 36/36 1").unwrap() else {
        panic!()
    };
    assert_eq!(t, "36/36 1");
}

#[test]
fn malformed_host_lines_get_typed_errors() {
    use AtsiError as E;
    let err = |l: &str| HostCommand::parse(l).unwrap_err();
    assert_eq!(err(""), E::Empty);
    assert_eq!(err("   "), E::Empty);
    assert_eq!(err("hello"), E::UnknownCommand("hello".into()));
    assert_eq!(err("atsiinit v1"), E::UnsupportedVersion("v1".into()));
    assert!(matches!(
        err("atsiinit"),
        E::Missing {
            command: "atsiinit",
            ..
        }
    ));
    assert!(matches!(
        err("time"),
        E::Missing {
            command: "time",
            ..
        }
    ));
    assert!(matches!(
        err("time ten"),
        E::BadArgument {
            command: "time",
            ..
        }
    ));
    assert!(matches!(
        err("time NaN"),
        E::BadArgument {
            command: "time",
            ..
        }
    ));
    assert!(matches!(
        err("time -5"),
        E::BadArgument {
            command: "time",
            ..
        }
    ));
    assert!(matches!(
        err("time 1 2 3"),
        E::Extra {
            command: "time",
            ..
        }
    ));
    assert!(matches!(
        err("player 2"),
        E::BadArgument {
            command: "player",
            ..
        }
    ));
    assert!(matches!(
        err("identify me"),
        E::Extra {
            command: "identify",
            ..
        }
    ));
    assert!(matches!(
        err("startgame"),
        E::Missing {
            command: "startgame",
            ..
        }
    ));
    assert!(matches!(
        err("opmove 18i 18m 5"),
        E::Missing {
            command: "opmove",
            ..
        }
    ));
    assert!(matches!(
        err("opmove 18i 18m x 5"),
        E::BadArgument {
            command: "opmove",
            ..
        }
    ));
    assert!(matches!(err("opmove 18i z9 5 5"), E::BadSquare(_)));
    assert!(matches!(
        err("setparam"),
        E::Missing {
            command: "setparam",
            ..
        }
    ));
    let many = format!("opmove {} 1 1", vec!["1a"; 50].join(" "));
    assert!(matches!(err(&many), E::IllegalMove { .. }));
    assert!(err(&"x".repeat(10_000)).to_string().len() < 200);
}

#[test]
fn engine_replies_read_as_tomatene_sends_them() {
    use EngineReply as R;
    let info = R::parse(r#"info "tomatene" "A taikyoku engine" "someone" "1.0""#).unwrap();
    assert_eq!(
        info,
        R::Info {
            name: "tomatene".into(),
            description: Some("A taikyoku engine".into()),
            version: Some("someone".into()),
            author: Some("1.0".into()),
            logo: None
        }
    );
    assert_eq!(R::parse(&info.to_line()), Ok(info));
    assert_eq!(
        R::parse("move 18r 18p 18q").unwrap().to_line(),
        "move 18r 18p 18q"
    );
    assert_eq!(R::parse("eval -350"), Ok(R::Eval(-350.0)));
    assert_eq!(R::parse("log LION STEP"), Ok(R::Log("LION STEP".into())));
    assert_eq!(R::parse("resign"), Ok(R::Resign(None)));
    assert_eq!(
        R::parse("param hash int[1, 4096]"),
        Ok(R::Param {
            name: "hash".into(),
            ty: ParamType::Int {
                range: Some((1, 4096))
            }
        })
    );
    assert_eq!(
        R::parse(r#"param policy enum["search"|"greedy"]"#),
        Ok(R::Param {
            name: "policy".into(),
            ty: ParamType::Enum(vec!["search".into(), "greedy".into()])
        })
    );
    for bad in [
        "info",
        r#"info "x"#,
        "eval",
        "eval x",
        "move 1a",
        "param x int[1]",
        "param x float",
        "atsiok now",
    ] {
        assert!(R::parse(bad).is_err(), "{bad}");
    }
}

fn word() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_.:/-]{1,12}"
}

fn clock() -> impl Strategy<Value = f64> {
    prop_oneof![(-1e6..1e6f64), (0u32..100_000).prop_map(f64::from)]
}

fn atsi_move() -> impl Strategy<Value = AtsiMove> {
    let square = (1u16..=36, 1u16..=36).prop_map(|(file, rank)| AtsiSquare { file, rank });
    (
        proptest::collection::vec(square, 2..6),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(squares, promote)| AtsiMove { squares, promote })
}

fn host_command() -> impl Strategy<Value = HostCommand> {
    use HostCommand as H;
    let reason = proptest::option::of("[a-z]{1,8}( [a-z]{1,8}){0,3}");
    prop_oneof![
        prop_oneof![Just("v0"), Just("v00")].prop_map(|v| H::AtsiInit { version: v.into() }),
        Just(H::Identify),
        Just(H::Eval),
        Just(H::Quit),
        (0.0..1e5f64, 0.0..100f64).prop_map(|(base, increment)| H::Time { base, increment }),
        (0u8..2).prop_map(H::Player),
        Just(H::StartGame(StartPos::Initial)),
        (atsi_move(), clock(), clock()).prop_map(|(mv, time, op_time)| H::OpMove {
            mv,
            time,
            op_time
        }),
        reason.clone().prop_map(H::Win),
        reason.clone().prop_map(H::Loss),
        reason.prop_map(H::Draw),
        (word(), word()).prop_map(|(name, value)| H::SetParam { name, value }),
    ]
}

fn engine_reply() -> impl Strategy<Value = EngineReply> {
    use EngineReply as R;
    let text = "[a-zA-Z0-9\"]{1,8}( [a-zA-Z0-9]{1,8}){0,3}";
    let ty = prop_oneof![
        Just(ParamType::String),
        Just(ParamType::Bool),
        proptest::option::of((-1e3..1e3f64, -1e3..1e3f64))
            .prop_map(|range| ParamType::Number { range }),
        proptest::option::of((any::<i64>(), any::<i64>()))
            .prop_map(|range| ParamType::Int { range }),
        proptest::collection::vec(word(), 1..4).prop_map(ParamType::Enum),
    ];
    prop_oneof![
        Just(R::AtsiOk),
        Just(R::Quit),
        (
            word(),
            proptest::collection::vec(proptest::option::of("[a-z]{0,5}( [a-z]{1,5})?"), 4)
        )
            .prop_map(|(name, o)| {
                // Only trailing fields may be left out: a gap reads as an empty word.
                let n = o.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
                let f = |i: usize| {
                    if i < n {
                        Some(o[i].clone().unwrap_or_default())
                    } else {
                        None
                    }
                };
                R::Info {
                    name,
                    description: f(0),
                    version: f(1),
                    author: f(2),
                    logo: f(3),
                }
            }),
        (word(), ty).prop_map(|(name, ty)| R::Param { name, ty }),
        atsi_move().prop_map(R::Move),
        proptest::option::of(text).prop_map(R::Resign),
        clock().prop_map(R::Eval),
        text.prop_map(R::Log),
    ]
}

proptest! {
    #[test]
    fn host_commands_round_trip(c in host_command()) {
        prop_assert_eq!(HostCommand::parse(&c.to_line()), Ok(c));
    }

    #[test]
    fn engine_replies_round_trip(r in engine_reply()) {
        prop_assert_eq!(EngineReply::parse(&r.to_line()), Ok(r));
    }

    #[test]
    fn any_line_is_read_or_refused_without_panic(line in "\\PC{0,80}") {
        let _ = HostCommand::parse(&line);
        let _ = EngineReply::parse(&line);
    }
}
