//! The ruleset file format: the Rust types *are* the format.
//!
//! A ruleset is a TOML document deserialized into [`RulesetFile`]. Every table denies unknown
//! keys, every field carries a doc comment (which becomes the JSON Schema's description), and
//! rule clauses hold their expressions as [`Expr`] strings that keep their byte span in the
//! file, so that a mistake deep inside an expression is reported at its exact line and column.
//! Nothing here interprets the rules: `check` turns this into compiled [`crate::rules::Rules`].
//!
//! Its input is user input: no `unwrap`, `expect` or indexing that could panic.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

/// An expression of the rules language, with its byte span in the TOML file.
pub type Expr = toml::Spanned<String>;

/// The whole ruleset file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    /// Version of the ruleset format. Must be 1.
    #[schemars(with = "u32")]
    pub format: toml::Spanned<u32>,
    /// The variant's name, as players call it.
    pub name: String,
    /// Where the variant is played.
    #[serde(default)]
    pub region: Option<String>,
    /// Citations of the documents this ruleset restates.
    #[serde(default)]
    pub sources: Vec<String>,
    /// A paragraph about the variant, shown by `sow explain`.
    #[serde(default)]
    pub about: Option<String>,
    /// The board: rows, holes, stores and the seeds at the start.
    pub board: Board,
    /// How seeds are sown: direction, first seed, skipped holes, relays.
    pub sowing: Sowing,
    /// Who moves first in the game (or in the first round of a match).
    #[serde(default)]
    pub start: Start,
    /// How turns pass between the players.
    #[serde(default)]
    pub turns: Turns,
    /// Legality clauses: a move is legal when its hole is the mover's, open and not empty, and
    /// every clause that applies is satisfied.
    #[serde(default)]
    pub legal: Vec<Legality>,
    /// Capture clauses, tried in file order at the moment each one names.
    #[serde(default)]
    pub capture: Vec<Capture>,
    /// Clauses that give the mover another sowing at the end of a move.
    #[serde(default)]
    pub extra_turn: Vec<ExtraTurn>,
    /// Entering seeds: a move of its own, beside sowing a hole, that sows seeds the mover
    /// holds (captured seeds, a reserve) onto the board from a hole the rules name.
    #[serde(default)]
    pub entry: Option<Entry>,
    /// An arrangement before play: each player in turn order, from the first mover, moves
    /// single seeds between their hand and the board (`s3+` puts one into `s3`, `s3-` picks
    /// one up) until they pass or can do nothing more; then play begins.
    #[serde(default)]
    pub arrange: Option<Arrange>,
    /// A racing opening: each round's first ply (`race`) is every player sowing at once, one
    /// seed each in turn a tick, from a hole the rules name.
    #[serde(default)]
    pub race: Option<Race>,
    /// Pieces unlike seeds (`[pieces.NAME]`, one kind): each player starts holding one, puts it
    /// on the board in the arrangement (`s3+NAME`), and it is then sown, counted and taken as a
    /// seed, while the position keeps where it is and who holds it.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, PieceDecl>")]
    pub pieces: BTreeMap<toml::Spanned<String>, PieceDecl>,
    /// Variables the rules keep beyond the seeds (a count, a flag, a direction), each with
    /// the scope that resets it. Expressions read `NAME` (or `NAME(player)` for one a player);
    /// `[[effect]]` clauses set them.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, VarDecl>")]
    pub vars: BTreeMap<toml::Spanned<String>, VarDecl>,
    /// Clauses that set variables at a moment of play.
    #[serde(default)]
    pub effect: Vec<Effect>,
    /// How a game or round ends and who wins.
    pub end: End,
    /// Present when the variant is played as a match of several rounds.
    #[serde(default)]
    pub rounds: Option<Rounds>,
    /// Named open points of the documented rules. Expressions read them as `option.NAME`;
    /// settings take them as `{ option = "NAME" }`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, OptionDecl>")]
    pub options: BTreeMap<toml::Spanned<String>, OptionDecl>,
}

/// Board geometry.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Rows of holes: 2 (one per player) or 4 (two per player); or 1, a ring: holes `r1..rN`
    /// counter-clockwise, the last followed by the first, shared out in equal blocks in turn
    /// order unless `owners` says whose holes are whose.
    #[schemars(with = "u32")]
    pub rows: toml::Spanned<u32>,
    /// Holes in each row (on a ring, on the ring): a number, or `{ option = "NAME" }` for a size chosen by an option
    /// whose values are numbers (layouts and hole numbers are then checked against the size
    /// in force).
    #[schemars(with = "Count")]
    pub holes: toml::Spanned<Count>,
    /// Where captured seeds are kept.
    #[serde(default)]
    pub stores: Stores,
    /// For stores on the track: at which end of its owner's row, as the owner sees it.
    #[serde(default)]
    pub store_side: StoreSide,
    /// Seeds at the start: one number for every hole, or a table per player's holes.
    #[schemars(with = "Seeds")]
    pub seeds: toml::Spanned<Seeds>,
    /// Seeds each player holds beside the board at the start (a reserve, or the store on the
    /// track), besides those in the holes: e.g. where an opening empties part of each side
    /// into a reserve. A number for each player, `{ option = "NAME" }`, or a number per
    /// player by name (`{ south = 18, north = 0 }`; a player not named holds none). Default 0.
    #[serde(default)]
    #[schemars(with = "Option<Held>")]
    pub held: Option<toml::Spanned<Held>>,
    /// Named sets of holes, each a list of hole labels (`left_end = ["s1", "s2", "n6"]`),
    /// read by aggregates as `sets.NAME`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, Vec<String>>")]
    pub sets: BTreeMap<String, Vec<toml::Spanned<String>>>,
    /// Who owns which holes, when not each row its player's: per player (by the names of
    /// `[turns] players`), their holes in their own numbering (`west = ["s3", "s4", "s5",
    /// "n3", "n4", "n5"]`). Every hole belongs to exactly one player. Two-row boards only.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, Vec<String>>")]
    pub owners: BTreeMap<toml::Spanned<String>, Vec<toml::Spanned<String>>>,
    /// Neutral holes, owned by nobody (`neutral = ["s4", "n4"]`): sown into and looked at
    /// like any hole, never played from by a player, and left out of every player's holes.
    /// Where `owners` is given, a hole is either a player's or neutral. Two-row boards, and
    /// games of one round.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub neutral: Vec<toml::Spanned<String>>,
    /// The documented clause this geometry implements.
    #[serde(default)]
    pub cites: Option<String>,
}

/// Where captured seeds are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stores {
    /// Each player keeps captures in a reserve beside the board, off the sowing track.
    #[default]
    Reserve,
    /// Each player has a store on the sowing track, sown into by its owner only.
    Track,
}

/// The end of its owner's row where a store on the track stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StoreSide {
    /// After the owner's rightmost hole.
    #[default]
    Right,
    /// Before the owner's leftmost hole.
    Left,
}

/// Initial seeds.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum Seeds {
    /// The same count in every hole.
    Uniform(u32),
    /// A count per hole of each player, in the player's own numbering (hole 1 first).
    Layout(Layout),
    /// The same count in every hole, taken from an option whose values are numbers.
    FromOption(CountOption),
    /// Seeds chosen by an option: `{ option = "NAME", map = { value = { south = [...],
    /// north = [...] }, ... } }`. Each value of the map is itself any of these forms: a
    /// count, a layout, or a choice by another option (`{ option = "holes", map = { "13" = {
    /// option = "layout", map = { ... } } } }`), so a layout may follow two options.
    Chosen(OptionRef<Seeds>),
}

/// A value that may be chosen by an option, each value of the choice being such a value in
/// turn (`[board] seeds`, `[board] held`).
pub trait OptionChoice: Sized {
    /// The choice, where the value is one.
    fn choice(&self) -> Option<&OptionRef<Self>>;
}

impl OptionChoice for Seeds {
    fn choice(&self) -> Option<&OptionRef<Self>> {
        match self {
            Seeds::Chosen(r) => Some(r),
            _ => None,
        }
    }
}

impl OptionChoice for Held {
    fn choice(&self) -> Option<&OptionRef<Self>> {
        match self {
            Held::Chosen(r) => Some(r),
            _ => None,
        }
    }
}

/// A whole number, or `{ option = "NAME" }` naming an option whose values are numbers.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum Count {
    Number(u32),
    FromOption(CountOption),
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        // By hand, as for [`Seeds`], so that a mistake gets a precise message.
        struct CountVisitor;
        impl<'de> serde::de::Visitor<'de> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a whole number or { option = \"NAME\" }")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Count, E> {
                whole_count(v).map(Count::Number)
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Count, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Count, A::Error> {
                let mut option = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "option" => option = Some(map.next_value::<toml::Spanned<String>>()?),
                        other => return Err(serde::de::Error::unknown_field(other, &["option"])),
                    }
                }
                option
                    .map(|option| Count::FromOption(CountOption { option }))
                    .ok_or_else(|| serde::de::Error::missing_field("option"))
            }
        }
        de.deserialize_any(CountVisitor)
    }
}

/// What each player holds at the start (`[board] held`): the same count for each, a count
/// per player by name, or either chosen by an option (`{ option = "NAME", map = { VALUE =
/// held, ... } }`, each value of the map itself any of these forms), as `[board] seeds` is.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum Held {
    Each(Count),
    PerPlayer(BTreeMap<String, u32>),
    Chosen(OptionRef<Held>),
}

impl<'de> Deserialize<'de> for Held {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        // By hand, as for [`Count`], so that a mistake gets a precise message.
        struct HeldVisitor;
        impl<'de> serde::de::Visitor<'de> for HeldVisitor {
            type Value = Held;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a whole number, { option = \"NAME\" }, a number per player ({ south = 18, north = 0 }) or { option = \"NAME\", map = { VALUE = held, ... } }",
                )
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Held, E> {
                whole_count(v).map(|n| Held::Each(Count::Number(n)))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Held, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Held, A::Error> {
                let (mut option, mut chosen) = (None, None);
                let mut each = BTreeMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "option" {
                        option = Some(map.next_value::<toml::Spanned<String>>()?);
                    } else if key == "map" {
                        chosen = Some(map.next_value::<BTreeMap<String, Held>>()?);
                    } else {
                        let n = map.next_value::<u32>()?;
                        if each.insert(key.clone(), n).is_some() {
                            return Err(serde::de::Error::custom(format!(
                                "`{key}` is given twice"
                            )));
                        }
                    }
                }
                match (option, each.is_empty()) {
                    (Some(option), true) => Ok(match chosen {
                        Some(map) => Held::Chosen(OptionRef { option, map }),
                        None => Held::Each(Count::FromOption(CountOption { option })),
                    }),
                    (None, _) if chosen.is_some() => Err(serde::de::Error::missing_field("option")),
                    (None, false) => Ok(Held::PerPlayer(each)),
                    (Some(_), false) => Err(serde::de::Error::custom(
                        "`held` is an option's count or a number per player, not both",
                    )),
                    (None, true) => Err(serde::de::Error::custom(
                        "`held = {}` names no player: give a number per player ({ south = 18, north = 0 })",
                    )),
                }
            }
        }
        de.deserialize_any(HeldVisitor)
    }
}

/// A count as a ruleset writes it: a whole number that fits a `u32`.
fn whole_count<E: serde::de::Error>(v: i64) -> Result<u32, E> {
    u32::try_from(v).map_err(|_| {
        E::custom(format!(
            "a count is a whole number from 0 to {}, found {v}",
            u32::MAX
        ))
    })
}

/// `{ option = "NAME" }` for a count: the option's values are whole numbers.
#[derive(Debug, Clone, JsonSchema)]
pub struct CountOption {
    /// The option whose value is the count.
    #[schemars(with = "String")]
    pub option: toml::Spanned<String>,
}

impl<'de> Deserialize<'de> for Seeds {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        // Written by hand so that `{ option = ... }` keeps its span and a mistake gets a
        // precise message (an untagged enum would only say that nothing matched).
        struct SeedsVisitor;
        impl<'de> serde::de::Visitor<'de> for SeedsVisitor {
            type Value = Seeds;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a seed count, { south = [...], north = [...] }, { option = \"NAME\" } \
                     or { option = \"NAME\", map = { VALUE = seeds, ... } }",
                )
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Seeds, E> {
                u32::try_from(v).map(Seeds::Uniform).map_err(|_| {
                    E::custom(format!(
                        "a seed count is a whole number from 0 to {}, found {v}",
                        u32::MAX
                    ))
                })
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Seeds, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Seeds, A::Error> {
                let (mut south, mut north, mut option, mut layouts) = (None, None, None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "south" => south = Some(map.next_value::<Vec<u32>>()?),
                        "north" => north = Some(map.next_value::<Vec<u32>>()?),
                        "option" => option = Some(map.next_value::<toml::Spanned<String>>()?),
                        "map" => layouts = Some(map.next_value::<BTreeMap<String, Seeds>>()?),
                        other => {
                            return Err(serde::de::Error::unknown_field(
                                other,
                                &["south", "north", "option", "map"],
                            ));
                        }
                    }
                }
                if let Some(map) = layouts {
                    return match (option, south.is_none() && north.is_none()) {
                        (Some(option), true) => Ok(Seeds::Chosen(OptionRef { option, map })),
                        (None, _) => Err(serde::de::Error::missing_field("option")),
                        (Some(_), false) => Err(serde::de::Error::custom(
                            "give either `option` and `map` or `south` and `north`, not both",
                        )),
                    };
                }
                match (south, north, option) {
                    (None, None, Some(option)) => Ok(Seeds::FromOption(CountOption { option })),
                    (Some(south), Some(north), None) => Ok(Seeds::Layout(Layout { south, north })),
                    (_, _, Some(_)) => Err(serde::de::Error::custom(
                        "give either `option` or `south` and `north`, not both",
                    )),
                    (None, _, None) => Err(serde::de::Error::missing_field("south")),
                    (_, None, None) => Err(serde::de::Error::missing_field("north")),
                }
            }
        }
        de.deserialize_any(SeedsVisitor)
    }
}

/// Per-hole initial seeds, in each row's numbering (its labels).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// South's holes, s1 first.
    pub south: Vec<u32>,
    /// North's holes, n1 first.
    pub north: Vec<u32>,
}

/// How seeds are sown.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sowing {
    /// Direction of sowing as seen from above, South at the bottom.
    pub direction: Setting<Direction>,
    /// Where the first seed of each lap goes.
    #[serde(default)]
    pub first_seed: Setting<FirstSeed>,
    /// Which holes a move may start from: the mover's own (default), or any hole on the
    /// board, the other players' and neutral holes included (legality clauses then say which).
    #[serde(default)]
    pub from: Setting<SowFrom>,
    /// Which emptied hole is passed over when a lap comes round to it.
    #[serde(default)]
    pub skip_origin: Setting<SkipOrigin>,
    /// How a lap is followed by another.
    #[serde(default)]
    pub relay: Option<Relay>,
    /// How closed holes take part in looking at holes (they are never sown into).
    #[serde(default)]
    pub closed_holes: Setting<ClosedHoles>,
    /// How many seeds a move lifts from the hole played (default: all of them): an
    /// expression over `origin`, e.g. `seeds(origin) - 1` to leave one seed behind. Relayed
    /// laps lift whole holes, unless `[sowing.relay] lift` says otherwise.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub lift: Option<Expr>,
    /// Holes lifted with the hole played, their seeds sown with its own in the move's first
    /// lap: a set of holes read as the move starts, before anything is lifted, `origin` the
    /// hole played, e.g. `gather = 'filter(holes_of(opponent), seeds(hole) == 1)'`. The hole
    /// played itself, closed holes and empty ones are left out. Not with `[pieces]`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub gather: Option<Expr>,
    /// A rule of the game that caps the laps of one move: the move ends after this many laps
    /// (no further relay), and its move-end clauses apply. A number, or `{ option = "NAME" }`
    /// for an option whose values are numbers. (Distinct from the engine's safety limit on
    /// laps, which stops play with no result.)
    #[serde(default)]
    #[schemars(with = "Option<Count>")]
    pub max_laps: Option<toml::Spanned<Count>>,
    /// Holes a seed passes over when a condition holds (`[[sowing.skip]]`), read for each
    /// seed before it is dropped, with `here` the hole it would fall into, `hand` the seeds in
    /// hand (this one included) and `last_seed` whether it is the lap's last.
    #[serde(default)]
    pub skip: Vec<Skip>,
    /// Redirect clauses, `[[sowing.redirect]]`: read before each seed is dropped (after the
    /// skip clauses), with the same names; when one holds, the seed goes elsewhere instead.
    #[serde(default)]
    pub redirect: Vec<Redirect>,
    /// The documented clause the sowing implements.
    #[serde(default)]
    pub cites: Option<String>,
}

/// Sowing direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Counter-clockwise: s1 → sN → n1 → nN.
    Ccw,
    /// Clockwise: sN → s1 → nN → n1.
    Cw,
    /// The mover chooses for each move (written `s3:cw`, `s3:ccw`); legality clauses read the
    /// choice as `direction`.
    Choose,
}

/// Where the first seed of a lap goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstSeed {
    /// Into the hole after the one lifted.
    #[default]
    Next,
    /// Back into the hole lifted, except that a single seed moves on to the next hole.
    Origin,
    /// Back into the hole lifted, a single seed too: a move of one seed puts it straight back
    /// (the lap ends in the hole it was lifted from).
    OriginAlways,
}

impl FirstSeed {
    /// The fewest seeds lifted whose first goes back into the hole lifted (`u16::MAX`, more
    /// than a hole can hold, where none does): one compare a lap.
    pub fn back_from(self) -> u16 {
        match self {
            FirstSeed::Next => u16::MAX,
            FirstSeed::Origin => 2,
            FirstSeed::OriginAlways => 1,
        }
    }
}

/// Which holes a move may start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SowFrom {
    /// The mover's own holes.
    #[default]
    Own,
    /// Any hole on the board, whoever owns it (a board of neutral holes, or rules that let
    /// a player sow the opponent's holes).
    Any,
}

/// Which origin, if any, the sowing passes over when it comes round to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkipOrigin {
    /// No hole is passed over.
    #[default]
    Never,
    /// The hole the move started from.
    Move,
    /// The hole the current lap was lifted from.
    Lap,
}

/// How closed holes take part in looking at holes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClosedHoles {
    /// Off the track for every purpose: `next(h)` and `prev(h)` pass over them.
    #[default]
    Absent,
    /// Never sown into nor played, but `next(h)` and `prev(h)` see them as empty holes.
    Empty,
}

/// How a lap is followed by another.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Relay {
    /// Which hole is lifted for the next lap: `landing` or `next`; or give `hole`.
    #[serde(default)]
    pub from: Option<RelayFrom>,
    /// The hole lifted for the next lap, as an expression over `last` (instead of `from`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub hole: Option<Expr>,
    /// Whether each relay turns the direction round: the next lap is sown the other way.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub reverse: Setting<bool>,
    /// Whether the mover may stop instead of relaying: where the relay would lift a hole, the
    /// move stops, and the mover's next ply is `continue` (the relay is made) or `stop` (the
    /// move ends there, its move-end clauses tried). `true`, an option's value, or a condition
    /// read where the relay would be made (`'own(last)'`): the relay is offered only where it
    /// holds, and made at once elsewhere.
    #[serde(default)]
    #[schemars(with = "Option<Toggle>")]
    pub optional: Option<toml::Spanned<Toggle>>,
    /// The lap relays only when this holds; otherwise the move ends. Defaults to "the hole to
    /// lift held seeds before the last drop" (`seeds(last) > 1` for `landing`,
    /// `seeds(next(last)) > 0` for `next`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub when: Option<Expr>,
    /// How many seeds each relay lifts from the hole it lifts (`hole`), default all: a number
    /// expression, e.g. `seeds(hole) - 1` to leave one behind. At least one seed is lifted,
    /// and at most the hole's all.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub lift: Option<Expr>,
    /// The documented clause this relay implements.
    #[serde(default)]
    pub cites: Option<String>,
}

impl Relay {
    /// `optional` as a condition to compile, where it is written as one (its place in the file
    /// that of the string).
    pub fn optional_condition(&self) -> Option<Expr> {
        let t = self.optional.as_ref()?;
        match t.get_ref() {
            Toggle::When(text) => Some(Expr::new(t.span(), text.clone())),
            Toggle::Setting(_) => None,
        }
    }
}

/// The hole lifted for the next lap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RelayFrom {
    /// The hole the last seed fell into.
    Landing,
    /// The hole after the one the last seed fell into.
    Next,
}

/// Who moves first.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The player who makes the first move of the game or match, by name (default: the
    /// first player, `south` unless `[turns] players` names them).
    #[serde(default)]
    #[schemars(with = "Option<Setting<String>>")]
    pub first: Option<toml::Spanned<Setting<String>>>,
    /// The documented clause.
    #[serde(default)]
    pub cites: Option<String>,
}

impl Default for Start {
    fn default() -> Self {
        Start {
            first: None,
            cites: None,
        }
    }
}

/// How turns pass.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Turns {
    /// The players' names, in turn order: 2 to 6 (default `["south", "north"]`). With more
    /// than two, `[board] owners` says whose holes are whose, and stores are reserves.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub players: Option<toml::Spanned<Vec<toml::Spanned<String>>>>,
    /// Whether a player who cannot sow passes (their only move is `pass`) while another
    /// player can move; the `no_move` ending then applies only when no player can move.
    /// Default `false`: the player who cannot move ends the game or round by `no_move`.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub pass: Setting<bool>,
    /// The pie rule: in each round, at the first turn of the player who did not make its first
    /// ply (an arrangement's, where there is one), that player may `swap` instead of moving.
    /// The board turns round, each player's holes onto the other's (on two rows `s3` onto `n3`;
    /// on a ring by as many holes as that takes; stores, what
    /// each holds, seeds removed, claims and per-player variables are exchanged, but in a
    /// match those lasting the match), and the turn passes back, so the first player moves
    /// again from the side they did not choose. Two players only, on a board that looks the
    /// same from both sides. Default `false`.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub swap: Setting<bool>,
    /// The documented clause.
    #[serde(default)]
    pub cites: Option<String>,
}

/// A legality clause.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Legality {
    /// A short name, shown when the clause rules a move out.
    pub name: String,
    /// The documented clause it implements (e.g. `SQ-6`).
    #[serde(default)]
    pub cites: Option<String>,
    /// The clause applies only when this holds (default: always). `origin` is the hole tried.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub when: Option<Expr>,
    /// The move is legal only if this holds before it is made.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub require: Option<Expr>,
    /// The move is legal only if this holds after it is made: the engine plays it on a copy of
    /// the position and evaluates the expression there (`mover` is still the one who moved).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub require_after: Option<Expr>,
    /// A preference over all the moves (instead of `require`): when some legal move has this
    /// property before it is made (`origin` is the hole tried), only the moves that have it are
    /// legal. Compulsory capture and its relatives. `when` is then read once, with no hole.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub prefer: Option<Expr>,
    /// A preference read after each move, played on a copy (e.g. `move_captures > 0`: when
    /// some legal move captures, only capturing moves are legal).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub prefer_after: Option<Expr>,
}

/// A condition under which a seed passes over a hole instead of falling into it.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Skip {
    /// A short name, shown in traces when the clause passes a seed over a hole.
    pub name: String,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// The seed passes over `here` when this holds.
    #[schemars(with = "String")]
    pub when: Expr,
}

/// A condition under which a seed due into a hole goes elsewhere: out of play, into another
/// hole, or to a player. A redirected last seed ends its lap where it went (or, out of play or
/// to a player, at the hole it was due into).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Redirect {
    /// A short name, shown in traces.
    pub name: String,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// The seed due into `here` goes elsewhere when this holds.
    #[schemars(with = "String")]
    pub when: Expr,
    /// `removed`: the seed leaves play (booked to the mover's removed seeds, like a capture
    /// removed from the game). Give one of this, `hole` and `player`.
    #[serde(default)]
    #[schemars(with = "Option<RedirectTo>")]
    pub to: Option<toml::Spanned<RedirectTo>>,
    /// The hole the seed goes into instead, an expression over `here` (e.g. `hole(opponent,
    /// 1)`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub hole: Option<Expr>,
    /// The player the seed goes to instead, an expression over `here` (e.g. `south` for a
    /// hole in a set of South's): it joins what that player holds, as a captured seed does,
    /// and the hole it was due into stays as it was (a hole whose seeds are its marker's). An
    /// expression naming nobody (the owner of a neutral hole) lets the seed fall where it was
    /// due.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub player: Option<Expr>,
}

/// Where a redirected seed goes, when not into a hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RedirectTo {
    /// Out of play for the rest of the game.
    Removed,
}

/// When a capture clause is tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Moment {
    /// After every seed dropped (`here` is the hole just sown, `last_seed` tells the lap's last).
    Drop,
    /// After the last seed of every lap, before the relay is decided.
    LapEnd,
    /// Once the move has ended (no more relay).
    MoveEnd,
    /// After each seed put on the board in the arrangement before play (`[arrange]`): `here`,
    /// `last` and `origin` are the hole it was put into.
    Put,
    /// After each seed picked up in the arrangement before play: `here`, `last` and `origin`
    /// are the hole it was picked up from.
    Pick,
    /// Effects only: once a round of a match has ended and been scored, before the match's
    /// end is decided; tried for each player still in the match in turn order, `mover` being
    /// that player and `round_winner` the round's winner.
    RoundEnd,
    /// Effects only: at the start of every round, the game's first included, once its board is
    /// laid out (after the refill) and before its first move; tried for each player still in
    /// play in turn order, `mover` being that player. Not with an arrangement (`[arrange]`),
    /// whose plies lay the board out.
    RoundStart,
    /// Captures only: once play has ended (the game's, or each round's in a match), before
    /// the ending shares out the seeds left on the board; tried for each player still in play
    /// in turn order, `mover` being that player (e.g. each player takes the holes they have
    /// won during play: `take_set = 'won(mover)'`).
    PlayEnd,
}

/// What happens after a lap-end capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum After {
    /// Go on: the relay is decided as usual.
    #[default]
    Continue,
    /// The move ends at once; move-end clauses still run.
    End,
    /// The captured seeds are not banked: they are sown as the next lap, starting after the
    /// hole the lap ended in (`to` is then only who the trace names).
    Sow,
    /// The move goes on by the relay (`[sowing.relay]`), whatever its condition says: the
    /// next lap lifts the hole the relay names if it holds seeds (from the landing hole, the
    /// capturing seed moves on). Never offered to the mover: the capture decides it.
    Relay,
}

/// Who receives captured seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// The player making the move.
    Mover,
    /// The mover's opponent.
    Opponent,
    /// The owner of the hole the seeds are taken from.
    Owner,
    /// Nobody: the seeds leave the game (counted as taken by the mover).
    Removed,
    /// At a drop: the player holding the piece just dropped (`[pieces]`); the mover when the
    /// drop was a seed.
    PieceHolder,
    /// At a drop: the player the piece just dropped belonged to at the start; the mover when
    /// the drop was a seed.
    PieceOwner,
}

/// What a capture leaves in a hole it takes (`keep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// At a drop: the seed or piece just dropped stays where it fell; the hole's other
    /// seeds and pieces are taken.
    Dropped,
}

/// A kind of piece unlike a seed (`[pieces.NAME]`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceDecl {
    /// What the piece is, for explanations.
    #[serde(default)]
    pub about: Option<String>,
    /// The documented clauses it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// Where in the sowing of a hole lifted the piece falls: `"stack"` (the default: the
    /// pieces and seeds of a hole are sown in the reverse of their arrival, so the piece falls
    /// after the seeds dropped on it since it arrived), `"last"` or `"first"`.
    #[serde(default)]
    pub sown: Setting<PieceOrder>,
    /// Where a piece still on the board goes when a round ends: `"remainder"` (the default:
    /// with the seeds of its hole, as the ending says) or `"holder"` (back to the player who
    /// held it when it was put on the board).
    #[serde(default)]
    pub round_end: Setting<PieceRoundEnd>,
}

/// Where a piece falls in the sowing of the hole it is lifted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PieceOrder {
    /// Last in, first out: after the seeds dropped on it since it arrived.
    #[default]
    Stack,
    /// After every seed of the hole.
    Last,
    /// Before every seed of the hole.
    First,
}

/// Where a piece on the board goes at a round's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PieceRoundEnd {
    /// With the seeds of its hole, to whoever the ending gives them.
    #[default]
    Remainder,
    /// Back to the player who held it when it was put on the board.
    Holder,
}

/// A capture clause.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Capture {
    /// A short name, shown in traces when the clause fires.
    pub name: String,
    /// The documented clause it implements (e.g. `RP-7`).
    #[serde(default)]
    pub cites: Option<String>,
    /// When the clause is tried.
    pub at: Moment,
    /// The clause fires when this holds.
    #[schemars(with = "String")]
    pub when: Expr,
    /// The holes whose seeds are taken; the first is `hole` for `chain`.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub take: Vec<Expr>,
    /// A set of holes taken as well, every hole of it (after those of `take`), read before
    /// anything is taken: `take_set = 'filter(holes_of(opponent), seeds(hole) in [2, 4, 6])'`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub take_set: Option<Expr>,
    /// How many seeds are taken from each hole taken (default all of them; at most what it
    /// holds): a number expression read before that hole is taken, `hole` naming it, e.g.
    /// `2`, or `seeds(hole) - 1` to leave one. The rest stay in the hole.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub take_seeds: Option<Expr>,
    /// Who receives the seeds (with `into`, whose capture it is: only the trace names them).
    /// Give this or `player`.
    #[serde(default)]
    pub to: Option<Setting<Destination>>,
    /// Who receives the seeds, as a player expression, in place of `to`: read for each hole
    /// taken, before its seeds are lifted, `hole` naming it, e.g. `'if(last_seed, mover,
    /// owner(hole))'` or `'if(hole in won(south), south, north)'`. Where it names nobody (the
    /// owner of a neutral hole) that hole is left as it is.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub player: Option<Expr>,
    /// A hole the taken seeds are put into instead of being banked: a hole expression read
    /// when the clause fires, before anything is taken, e.g. `'last'` or `'origin'`. They
    /// stay on the board (they count in `move_captures`). A clause whose `into` names no hole
    /// of the board, or a closed one, takes nothing.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub into: Option<Expr>,
    /// Walk on from the first hole taken, taking more holes.
    #[serde(default)]
    pub chain: Option<Chain>,
    /// Undo the whole capture when this holds after it (e.g. a capture that would empty the
    /// opponent's row).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub cancel_if: Option<Expr>,
    /// For `lap_end` captures: what the move does next.
    #[serde(default)]
    pub then: After,
    /// With `then = "sow"`: the hole after which the captured seeds are sown (default `last`,
    /// the hole the lap ended in), e.g. `lap_origin` to sow them from the hole after the one
    /// this lap was lifted from.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub sow_after: Option<Expr>,
    /// With `then = "sow"`: seeds also lifted from the hole the lap ended in and sown with the
    /// captured ones (at most what it holds), e.g. `1` for the capturing seed itself.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub lift_also: Option<Expr>,
    /// The mover chooses one hole of this set (read where the condition holds), named
    /// `chosen` in the clause's other expressions: `take = ['chosen']` takes a hole of the
    /// mover's choice, `sow_after = 'chosen'` sows the captured seeds from it. Where the set
    /// has more than one hole (or the clause is `optional`) the move stops, and the mover's
    /// next ply is `take:HOLE` (or `leave`); an empty set leaves the clause unmade. At
    /// `lap_end` and `move_end`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub choose: Option<Expr>,
    /// With `then = "sow"`: the direction the captured seeds are sown in, a direction
    /// expression (`cw`, `ccw`, `direction` for the lap's own, a direction variable, or
    /// `if(c, cw, ccw)`); default the direction of the lap that captured. Later relays of the
    /// move go on from it.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub sow_direction: Option<Expr>,
    /// The first hole taken becomes the mover's claimed hole: from then on every seed sown
    /// into it goes to the mover's store or reserve, so it stays empty and nobody can play it.
    /// A player holds at most one claim; `claim(p)` and `claimed(h)` read claims.
    #[serde(default)]
    pub claim: bool,
    /// Whether the mover may decline the capture (default `false`: every capture on offer is
    /// made). For `lap_end` and `move_end` clauses: where the condition holds and the capture
    /// would take seeds, the move stops and the mover decides, `take` or `leave`; leaving it,
    /// the move goes on as if the condition had not held, so the later clauses of the same
    /// moment are tried: an optional clause before another with the same condition offers a
    /// choice between the two.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub optional: Setting<bool>,
    /// For `drop` captures: `"dropped"` leaves the seed or piece just dropped where it fell,
    /// and takes the rest of the hole.
    #[serde(default)]
    pub keep: Option<Keep>,
}

/// A chain of captures: from the hole just taken (`hole`), step to another while a condition holds.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chain {
    /// Evaluated with `hole` = the hole just taken; the chain goes on while it holds.
    #[serde(rename = "while")]
    #[schemars(with = "String")]
    pub while_: Expr,
    /// The next hole to take, from `hole` = the hole just taken.
    #[schemars(with = "String")]
    pub step: Expr,
    /// Holes taken as well at each step, read with `hole` = the hole the chain stepped to
    /// (e.g. `also = ['opposite(hole)']`: a hole and the one facing it, step by step).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub also: Vec<Expr>,
}

/// A variable of the rules.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VarDecl {
    /// What it holds.
    #[serde(default)]
    pub kind: VarKind,
    /// When it is reset to its first value.
    pub scope: VarScope,
    /// Whether each player has one of their own (read `NAME(player)`; an effect sets the
    /// mover's).
    #[serde(default)]
    pub per_player: bool,
    /// Its first value: a number, `true`/`false` for a flag; a direction starts as `none`.
    #[serde(default)]
    pub initial: i64,
    /// What it means, in a sentence (shown by `sow explain`).
    #[serde(default)]
    pub about: Option<String>,
}

/// What a variable holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VarKind {
    /// A whole number.
    #[default]
    Number,
    /// True or false (read as a condition).
    Flag,
    /// A direction of sowing, `none` until set (compared with `direction`, `cw`, `ccw`).
    Direction,
    /// A set of holes, empty at first: marks on holes (covered, locked), read as a set
    /// (`here in covered`, `count(covered, ...)`), changed by effects' `mark` and `unmark`.
    Holes,
}

/// When a variable goes back to its first value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VarScope {
    /// When every lap is over (after its lap-end clauses and effects): every lap starts with
    /// it at its first value, e.g. the holes the lap has sown.
    Lap,
    /// When every move is over (after its extra-turn clauses are read): every move starts
    /// with it at its first value.
    Move,
    /// At the start of every turn (a turn is the moves a player makes before the turn passes).
    Turn,
    /// At the start of every round.
    Round,
    /// Never: it lasts the whole game or match.
    Game,
}

/// A clause that sets variables.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// A short name, shown in traces.
    pub name: String,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// When it is tried: `drop`, `lap_end` or `move_end`, after the capture clauses of that
    /// moment; or, in a match, `round_end`: once a round has been scored, for each player still
    /// in the match in turn (`mover` that player, `round_winner` the round's winner).
    pub at: Moment,
    /// It applies when this holds (default: always).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub when: Option<Expr>,
    /// Whose own variables (those declared `per_player`) the effect sets, marks and unmarks: a
    /// player expression, read with the new values, before any is set (default: `mover`).
    /// Where it names nobody (the owner of a neutral hole), those variables are left alone.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub player: Option<Expr>,
    /// The new values: `{ NAME = 'expression' }`, all read before any is set. For a variable
    /// each player has, that of `player` (the mover's by default) is set.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub set: BTreeMap<toml::Spanned<String>, Expr>,
    /// Holes put into sets of holes (variables of kind `holes`): `{ covered = 'last' }`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub mark: BTreeMap<toml::Spanned<String>, Expr>,
    /// Holes taken out of sets of holes: `{ locked = 'origin' }`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub unmark: BTreeMap<toml::Spanned<String>, Expr>,
}

/// A clause that gives the mover another sowing.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtraTurn {
    /// A short name, shown in traces.
    pub name: String,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// Evaluated when the move has ended; the mover sows again when it holds.
    #[schemars(with = "String")]
    pub when: Expr,
    /// Whether the mover may decline the extra turn (default `false`: they must move again).
    /// In an optional extra turn the mover's legal moves include `pass`, which declines it and
    /// passes the turn on; with no other legal move, `pass` is the only one.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub optional: Setting<bool>,
}

/// A move that sows seeds the mover holds instead of lifting a hole: written `+N` (`+N:cw`
/// where the mover chooses the direction), N the seeds entered.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// A short name, shown in explanations (default `entry`).
    #[serde(default)]
    pub name: Option<String>,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// The mover may enter seeds only when this holds (default: always), read before the
    /// move, with no hole. A mover holding no seed never enters.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub when: Option<Expr>,
    /// How many seeds are entered (default `store(mover)`: all the mover holds), read before
    /// the move; never more than the mover holds. With `choose`, the most the mover may enter.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub seeds: Option<Expr>,
    /// Whether the mover chooses how many seeds to enter, from one to `seeds` (default
    /// `false`: exactly `seeds`). A game of at most 64 seeds, on the board and held (`sow
    /// check` says so).
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub choose: Setting<bool>,
    /// The hole the first seed falls into (e.g. `hole(mover, 1)`), read before the move in
    /// its direction (`next(hole(mover, 1))` is the hole after it that way); the seeds go on
    /// from there one a hole along the mover's circuit, and the lap ends as any lap does. Or a
    /// set of holes, the mover choosing which (e.g. `filter(inner_row(mover), seeds(hole) >
    /// 0)`): each is a move of its own, written `+1@s3`, and the size is then fixed.
    #[schemars(with = "String")]
    pub start: Expr,
}

/// A racing opening (`[race]`): each round's first ply, written `race`, is every player in
/// play sowing at once from a hole the rules name. The sowings go in lockstep: in each tick
/// every sowing still going drops one seed, in turn order from the round's starter; a lap's
/// lift, its captures and its relay take no tick of their own. Each sowing relays, captures
/// and ends by the ruleset's clauses as that player's move would.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Race {
    /// A short name, shown in explanations (default `race`).
    #[serde(default)]
    pub name: Option<String>,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// Whether the rules have the race (default `true`; an option may switch it off).
    #[serde(default = "on")]
    #[schemars(with = "Setting<bool>")]
    pub enabled: Setting<bool>,
    /// Each player's starting hole, read before the race with that player as `mover`
    /// (`hole(mover, 6)`); or a set of holes (`holes_of(mover)`), from which each player in
    /// turn order from the round's starter chooses the hole they race from (`race:s3`) before
    /// the race. A player whose hole is closed or empty (or who has no open hole of the set
    /// holding seeds that no earlier player chose) does not race.
    #[schemars(with = "String")]
    pub from: Expr,
    /// When the race is over: `first`, as soon as one sowing has ended (the others stop at
    /// the end of that tick), or `all`, once every sowing has ended.
    #[serde(default)]
    pub ends: Setting<RaceEnds>,
    /// With `ends = "first"`, what a sowing cut short does with the seeds in its hand: `sow`
    /// them on, one a hole, with no clause read at the lap's end; or put them `back` into
    /// the hole its lap was lifted from.
    #[serde(default)]
    pub unfinished: Setting<RaceUnfinished>,
    /// Who moves once the race is over: the player whose sowing ended `first` (the earlier
    /// in turn order from the starter on the same tick), the player `after` them in turn
    /// order, or the round's `starter`. Nobody's sowing ended (nobody raced): the starter.
    #[serde(default)]
    pub next: Setting<RaceNext>,
}

/// When a race is over (`[race] ends`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaceEnds {
    /// As soon as one sowing has ended.
    #[default]
    First,
    /// Once every sowing has ended.
    All,
}

/// What a sowing cut short by the race's end does with the seeds in its hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaceUnfinished {
    /// Sows them on, one a hole, reading no clause at the lap's end.
    #[default]
    Sow,
    /// Puts them back into the hole the lap was lifted from.
    Back,
}

/// Who moves once the race is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaceNext {
    /// The player whose sowing ended first.
    #[default]
    First,
    /// The player after them in turn order.
    After,
    /// The round's starter.
    Starter,
}

/// The arrangement before play, or at every round's start (`[arrange]`, `at`): the players,
/// one after the other in turn order from the first mover (or as `first` says), lay out seeds
/// one at a time, each a ply of its own. A player's arrangement ends when they pass (where
/// `done` allows it) or when they can neither put nor pick up a seed; once every player's has
/// ended, the round's first mover makes the first move. Seeds put come from what the mover
/// holds (their reserve, or their store), and seeds picked up go there.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Arrange {
    /// A short name, shown in explanations and traces (default `arrangement`).
    #[serde(default)]
    pub name: Option<String>,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// Where the mover may put one seed they hold: `origin` is the hole tried (e.g.
    /// `own(origin)`). Never offered to a mover who holds no seed. Default: nowhere (an
    /// arrangement that only puts pieces, `place`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub put: Option<Expr>,
    /// Where the mover may pick up one seed into their hand (`origin` the hole tried; never
    /// an empty hole). Default: nowhere, so the players only lay out what they hold.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub pick: Option<Expr>,
    /// When the mover may end their arrangement with `pass`, read with no hole (e.g.
    /// `store(mover) == 0`). Default: never; the arrangement then ends when the mover can
    /// neither put nor pick up a seed.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub done: Option<Expr>,
    /// When the players arrange: `"start"` (the default: before the first move of the game),
    /// `"rounds"` (at the start of every round after the first, once the board has been
    /// refilled; with no `[rounds] refill`, every hole is emptied into its owner's hand and the
    /// arrangement lays out all the seeds) or `"always"` (both).
    #[serde(default)]
    pub at: Setting<ArrangeAt>,
    /// Who arranges first, the others following in turn order: `"starter"` (the default: the
    /// round's first mover), `"poorer"` or `"richer"` (the player holding the fewest or most
    /// seeds, on the board and off it, the first in turn order counting as the poorer on equal
    /// totals). Once every player has arranged, the round's first mover moves.
    #[serde(default)]
    pub first: Setting<ArrangeFirst>,
    /// Where the mover may put a piece they hold (`[pieces]`), written `s3+NAME`: `origin` is
    /// the hole tried. Default: nowhere. A player's arrangement does not end while they may
    /// still put one.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub place: Option<Expr>,
    /// With `at` including `"rounds"`: whether the refill comes `"before"` the arrangement
    /// (the default) or `"after"` it, filling the holes the arrangement left empty.
    #[serde(default)]
    pub refill: Setting<ArrangeRefill>,
}

/// When the refill between rounds is made, beside the arrangement (`[arrange] refill`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArrangeRefill {
    /// The board is refilled, then the players arrange.
    #[default]
    Before,
    /// Every hole is emptied into its owner's hand, the players arrange, and then the refill
    /// fills the holes that are still empty.
    After,
}

/// When the players arrange their seeds (`[arrange] at`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArrangeAt {
    /// Before the first move of the game.
    #[default]
    Start,
    /// At the start of every round after the first, after the refill.
    Rounds,
    /// Before the first move, and at the start of every later round.
    Always,
}

impl ArrangeAt {
    /// Whether the players arrange before the game's first move.
    pub fn at_start(self) -> bool {
        matches!(self, ArrangeAt::Start | ArrangeAt::Always)
    }

    /// Whether the players arrange at the start of every round after the first.
    pub fn at_rounds(self) -> bool {
        matches!(self, ArrangeAt::Rounds | ArrangeAt::Always)
    }
}

/// Who arranges first (`[arrange] first`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArrangeFirst {
    /// The round's first mover.
    #[default]
    Starter,
    /// The player holding the fewest seeds; the first in turn order on equal totals.
    Poorer,
    /// The player holding the most seeds; the later in turn order on equal totals.
    Richer,
}

/// How a game or round ends.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// The player to move has no legal move (`mover` = that player).
    pub no_move: Ending,
    /// A move whose laps never end: a lap-end state repeats within the move (`mover` = the
    /// player making the move). The move stops at the first repeat. Default: each player takes
    /// their own row, most seeds wins (`sow check` warns when a relaying ruleset leaves it out).
    #[serde(default)]
    pub endless_move: Option<Ending>,
    /// A position repeats with the same player to move (`mover` = the player to move).
    /// Default: each player takes their own row, most seeds wins.
    #[serde(default)]
    pub cycle: Option<Ending>,
    /// Further endings, checked after every sowing (`mover` = the player to move next).
    #[serde(default)]
    pub when: Vec<EndWhen>,
    /// No legal move of any player can capture: every player's legal moves are played out on
    /// copies of the position, after every sowing (`mover` = the player to move next, so
    /// `opponent` is the player who moved last). Absent: play goes on.
    #[serde(default)]
    pub no_capture: Option<Ending>,
    /// No capture can follow: after every move or pass, the play to come is followed on a copy of
    /// the position for as long as it is forced (the player to move has one legal move, or
    /// must pass). The ending fires when that play comes, without capturing, to a player with
    /// no move, a move whose laps never end, a position it has already met, or an ending of
    /// `[[end.when]]`. Where a player would have a choice, play goes on. For games whose play
    /// is forced (a start hole fixed by the last move); `mover` = the player to move next.
    #[serde(default)]
    pub no_further_capture: Option<Ending>,
    /// No capture can be reached: after every move or pass, every position that some sequence
    /// of legal moves (and passes), by any player, reaches within the round is searched on
    /// copies, each once; the ending fires when none of those moves captures. A line of play
    /// ends at a player with no move, a move whose laps never end, a position already met, or
    /// an ending of `[[end.when]]`. For games whose round ends "when no capture is possible any
    /// more", read over all the play to come; `mover` = the player to move next.
    #[serde(default)]
    pub no_capture_reachable: Option<Ending>,
    /// A player may concede: at their turn, instead of moving, the player to move writes
    /// `concede`, and the game ends (in a match, the match): `mover` = the player who
    /// concedes. A way out of the game rather than a move of it: lists of legal moves, and
    /// the players that choose from them, leave it out. Absent: nobody may concede.
    #[serde(default)]
    pub concede: Option<Ending>,
    /// What becomes of the seeds in neutral holes (`[board] neutral`) when the game ends,
    /// whatever `remaining` says of the players' holes: they stay on the board, uncounted
    /// (default), or are shared equally among the players, the seeds that do not divide
    /// staying on the board.
    #[serde(default)]
    pub neutral_seeds: Setting<NeutralSeeds>,
}

/// What becomes of the seeds in neutral holes at the game's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NeutralSeeds {
    /// They stay on the board, counted for nobody.
    #[default]
    Stay,
    /// Each player still in the game takes an equal share; the rest stay on the board.
    Shared,
}

/// An ending: what becomes of the seeds on the board and who wins.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    /// Who takes the seeds still on the board.
    pub remaining: Setting<Remaining>,
    /// How the winner is decided.
    pub result: Setting<Verdict>,
    /// Whether the rule is part of the game (default true); `false`, or an option's value
    /// mapped to `true`/`false`, leaves it out (for `cycle`: repeated positions do not end
    /// play).
    #[serde(default = "on")]
    #[schemars(with = "Setting<bool>")]
    pub enabled: Setting<bool>,
    /// The documented clause.
    #[serde(default)]
    pub cites: Option<String>,
}

/// The default of `enabled`.
fn on() -> Setting<bool> {
    Setting::Fixed(true)
}

/// A further ending condition.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndWhen {
    /// A short name, shown in traces.
    pub name: String,
    /// The documented clause.
    #[serde(default)]
    pub cites: Option<String>,
    /// The game or round ends when this holds after a sowing.
    #[schemars(with = "String")]
    pub when: Expr,
    /// Who takes the seeds still on the board.
    pub remaining: Setting<Remaining>,
    /// How the winner is decided.
    pub result: Setting<Verdict>,
}

/// Who takes the seeds left on the board when a game or round ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Remaining {
    /// Each player takes the seeds in their own holes.
    Owners,
    /// The ending's `mover` takes them all.
    Mover,
    /// The opponent of the ending's `mover` takes them all.
    Opponent,
    /// The player who made the last sowing move takes them all (passes are not moves); before
    /// anyone has sown (a concession at the first ply), each player takes their own.
    LastMover,
    /// The player who started the round (or the game) takes them all.
    Starter,
    /// They leave the game.
    Removed,
    /// They stay on the board (for results that do not count them).
    Stay,
}

/// How the winner is decided when a game or round ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The player holding more seeds (store or reserve) wins; equal is a draw.
    MostSeeds,
    /// Nobody wins.
    Draw,
    /// The ending's `mover` wins.
    MoverWins,
    /// The ending's `mover` loses.
    MoverLoses,
}

/// A match of several rounds.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rounds {
    /// Whether every round starts again from the start position (`true`: the holes as
    /// `[board] seeds` lays them out, each player holding `[board] held`): a match of separate
    /// games, the seeds won in one not carried into the next, so `refill` and the settings of
    /// the refill are not used. Default `false`: the board is refilled from what the players
    /// hold.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub restart: Setting<bool>,
    /// Seeds put into each hole when the board is refilled from a player's reserve. A player
    /// holding fewer than this at a round's end cannot open a hole, and the match ends.
    /// A number, or `{ option = "NAME" }` for an option whose values are numbers. Required
    /// unless every round starts again (`restart`) or the players lay out their seeds
    /// themselves (`[arrange] at = "rounds"`: every hole is then emptied into its owner's
    /// hand for the arrangement).
    #[serde(default)]
    #[schemars(with = "Option<Seeds>")]
    pub refill: Option<toml::Spanned<Seeds>>,
    /// The end of their own row from which each player refills. Required with `refill`.
    #[serde(default)]
    pub refill_from: Option<Setting<RowEnd>>,
    /// What a player's last hole gets when their seeds do not fill it: `"closed"` (the
    /// default: it is closed with the holes after it, the seeds kept) or `"partial"` (it takes
    /// what is left; a player is then short of a hole only with no seed at all).
    #[serde(default)]
    pub last_hole: Setting<LastHole>,
    /// With `last_hole = "partial"`: the fewest seeds a partial last hole takes (default 1,
    /// at most `refill`). A player left with fewer keeps them off the board, and a player
    /// holding fewer in all cannot fill a hole. An option may choose it:
    /// `least_in_last = { option = "leftover", map = { two = 2, three = 3 } }`.
    #[serde(default)]
    #[schemars(with = "Option<Setting<u32>>")]
    pub least_in_last: Option<toml::Spanned<Setting<u32>>>,
    /// Whether holes are won at the refill (default `false`). With `true`, every player first
    /// fills their own holes (the holes the board gives them at the start, whoever held them
    /// in the round just played) from `refill_from`; then the players with seeds left, one
    /// hole each in turn order, fill the holes nobody filled, going on round the board from
    /// their own holes in the refill's direction. A hole belongs for the round to whoever
    /// filled it; a hole nobody fills stays its first owner's (closed or open by `unfilled`).
    /// For boards of one or two rows, refilled from an end.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub win_holes: Setting<bool>,
    /// How many holes each player fills: `"own"` (the default: as many as their seeds allow)
    /// or `"poorest"` (as many as the player holding the fewest seeds fills, who lays out
    /// everything; the others keep the rest off the board, counted at the next refill).
    #[serde(default)]
    pub holes_filled: Setting<HolesFilled>,
    /// With `holes_filled = "poorest"`: what the other players put in the hole matching the
    /// poorest player's partial last hole (the same place in the refill order): `"full"` (the
    /// default) or `"same"` (as many seeds as the partial hole holds).
    #[serde(default)]
    pub matching_hole: Setting<MatchingHole>,
    /// What becomes of the holes a player does not fill: `"closed"` (the default: out of play
    /// for the round) or `"open"` (left empty on the circuit, sown into and playable).
    #[serde(default)]
    pub unfilled: Setting<Unfilled>,
    /// Holes out of play for the next round, by a rule: a set of holes (e.g. `filter(all_holes,
    /// number(hole) > holes - cut)`), read after every round but the last, once the round-end
    /// effects are made and the match goes on, before the refill (and before holes change
    /// hands by `rotate_owners`). They are not filled, and
    /// play treats them as `[sowing] closed_holes` says; a later round may bring them back.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub closed: Option<Expr>,
    /// Who starts the next round.
    pub next_starter: Setting<NextStarter>,
    /// The match ends when this holds after a round has ended (before the board is
    /// refilled), read after the round-end effects. Whatever it says, the match also ends
    /// when a player cannot fill one hole.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub match_ends: Option<Expr>,
    /// Who wins the match when it ends: `"most_seeds"` (the default: the player holding the
    /// most seeds) or `"last_round"` (the winner of the round that ended it; a draw if that
    /// round was drawn), for matches won by rounds, such as five wins in a row counted by
    /// round-end effects.
    #[serde(default)]
    pub match_winner: Setting<MatchWinner>,
    /// Whether the match ends (most seeds wins) when a round would start from a position an
    /// earlier round started from. No documented game has this rule: default `false`.
    #[serde(default)]
    #[schemars(with = "Setting<bool>")]
    pub end_on_repeated_start: Setting<bool>,
    /// Every this many rounds, each player's holes pass to the next player in turn order
    /// before the board is refilled (0, the default: holes never change hands). A number, or
    /// `{ option = "NAME" }`.
    #[serde(default)]
    #[schemars(with = "Option<Count>")]
    pub rotate_owners: Option<toml::Spanned<Count>>,
    /// A gift between rounds: before the board is refilled (and before anyone is found unable
    /// to fill a hole), one player gives seeds to each other player still in the match.
    #[serde(default)]
    pub give: Option<Give>,
    /// The documented clauses.
    #[serde(default)]
    pub cites: Option<String>,
}

/// A gift of seeds between rounds (`[rounds.give]`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Give {
    /// A short name, shown in traces.
    pub name: String,
    /// The documented clause it implements.
    #[serde(default)]
    pub cites: Option<String>,
    /// The player who gives, read when the round has ended: `owner(s4)`.
    #[schemars(with = "String")]
    pub from: Expr,
    /// Seeds given to each other player still in the match (at most what the giver holds): a
    /// number, or a number expression read when the round has ended, before anything is given,
    /// e.g. `'if(store(south) % 4 == 2, 2, 1)'`.
    #[schemars(with = "Amount")]
    pub seeds: toml::Spanned<Amount>,
    /// The gift is made only when this holds (default: always).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub when: Option<Expr>,
}

impl Give {
    /// The gift's size as an expression to compile, where it is written as one (its place in
    /// the file that of the string).
    pub fn seeds_expression(&self) -> Option<Expr> {
        match self.seeds.get_ref() {
            Amount::Number(_) => None,
            Amount::Expression(text) => Some(Expr::new(self.seeds.span(), text.clone())),
        }
    }
}

/// A switch written as `true` or `false`, as an option's value (`{ option = "NAME" }`), or as a
/// condition read each time the switch is asked (`'own(last)'`).
// Its schema is derived; it is read by hand (as `Count` is), so that an option's name keeps its
// place in the file.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum Toggle {
    Setting(Setting<bool>),
    When(String),
}

impl<'de> Deserialize<'de> for Toggle {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        // A boolean is the value itself, a string a condition, a table an option's value; the
        // table is read by the same deserializer, so the option's name keeps its span.
        struct ToggleVisitor;
        impl<'de> serde::de::Visitor<'de> for ToggleVisitor {
            type Value = Toggle;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("`true`, `false`, a condition, or a table { option = \"NAME\" }")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Toggle::Setting(Setting::Fixed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Toggle::When(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                OptionRef::<bool>::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|o| Toggle::Setting(Setting::FromOption(o)))
            }
        }
        de.deserialize_any(ToggleVisitor)
    }
}

/// A number written as such, or as a number expression (`seeds = 2`, `seeds = 'if(...)'`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Amount {
    Number(u32),
    Expression(String),
}

/// An end of a player's row, as that player sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RowEnd {
    /// The player's leftmost hole first.
    Left,
    /// The player's rightmost hole first.
    Right,
    /// From both ends towards the middle, leftmost first: the holes left closed are in the
    /// middle of the row.
    OutsideIn,
}

/// What a player's last hole gets at a refill when their seeds do not fill it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LastHole {
    /// Nothing: a hole is filled in full or not at all; the seeds left over are kept.
    #[default]
    Closed,
    /// What is left: the last hole filled may hold fewer than `refill`.
    Partial,
}

/// How many holes each player fills at a refill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HolesFilled {
    /// As many as their own seeds allow.
    #[default]
    Own,
    /// As many as the player holding the fewest seeds (the first in turn order on equal
    /// totals) fills; the others keep what is left off the board.
    Poorest,
}

/// What the others put in the hole matching the poorest player's partial last hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchingHole {
    /// A full hole, as in every other hole they fill.
    #[default]
    Full,
    /// As many seeds as the partial hole: the layouts mirror each other.
    Same,
}

/// What becomes of the holes a refill leaves empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unfilled {
    /// Out of play for the round: off the circuit, never sown into or played.
    #[default]
    Closed,
    /// Empty, still on the circuit: sown into, and playable once they hold seeds.
    Open,
}

/// Who wins a match when it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchWinner {
    /// The player holding the most seeds (equal tops draw).
    #[default]
    MostSeeds,
    /// The winner of the round that ended the match (a draw if it was drawn).
    LastRound,
}

/// Who starts the next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NextStarter {
    /// The player who took the seeds left on the board; when they were shared by their owners,
    /// the player who would have moved next.
    RemainderTaker,
    /// The player who did not start the round just ended.
    Alternate,
    /// The winner of the round just ended (on a draw, the player who did not start it).
    Winner,
    /// The loser of the round just ended (on a draw, the player who did not start it).
    Loser,
    /// The player who now holds the holes the last round's starter held: the same player,
    /// unless `rotate_owners` moved the holes on (then the next player in turn order).
    WithHoles,
    /// The player who started the round just ended, whatever happened to the holes: the same
    /// player every round (while they are in the match).
    Same,
    /// The player holding the most seeds when the round has ended; on equal totals the later
    /// in turn order (the first counts as the poorer).
    Richer,
    /// The player holding the fewest seeds when the round has ended; on equal totals the
    /// first in turn order.
    Poorer,
}

/// A named open point of the documented rules.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionDecl {
    /// The question the documents leave open.
    pub question: String,
    /// The values the option may take.
    #[schemars(with = "Vec<String>")]
    pub values: Vec<toml::Spanned<String>>,
    /// The reading taken by default.
    #[schemars(with = "String")]
    pub default: toml::Spanned<String>,
    /// Why the default was chosen, in a sentence.
    pub why: String,
    /// The id of the open point (e.g. `RP-O3`).
    #[serde(default)]
    pub cites: Option<String>,
}

/// A setting fixed in the file, or taken from an option's value.
#[derive(Debug, Clone)]
pub enum Setting<T> {
    /// The value itself.
    Fixed(T),
    /// The value of an option; with `map`, the option's value is translated first.
    FromOption(OptionRef<T>),
}

impl<T: Default> Default for Setting<T> {
    fn default() -> Self {
        Setting::Fixed(T::default())
    }
}

/// `{ option = "NAME" }` or `{ option = "NAME", map = { value = setting, ... } }`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionRef<T> {
    /// The option whose value this setting takes.
    #[schemars(with = "String")]
    pub option: toml::Spanned<String>,
    /// Translation from the option's values to this setting's values (default: the same words).
    #[serde(default = "BTreeMap::<String, T>::new")]
    pub map: BTreeMap<String, T>,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Setting<T> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        // A table names an option; a string, a boolean or a number is the value itself. The
        // table is read by the same deserializer, so the option's name keeps its span in the
        // file.
        struct SettingVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for SettingVisitor<T> {
            type Value = Setting<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a value, or a table { option = \"NAME\" }")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
                use serde::de::IntoDeserializer;
                T::deserialize(v.into_deserializer()).map(Setting::Fixed)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                use serde::de::IntoDeserializer;
                T::deserialize(v.into_deserializer()).map(Setting::Fixed)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
                use serde::de::IntoDeserializer;
                T::deserialize(v.into_deserializer()).map(Setting::Fixed)
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
                use serde::de::IntoDeserializer;
                T::deserialize(v.into_deserializer()).map(Setting::Fixed)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                OptionRef::<T>::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(Setting::FromOption)
            }
        }
        de.deserialize_any(SettingVisitor(std::marker::PhantomData))
    }
}

impl<T: JsonSchema> JsonSchema for Setting<T> {
    fn schema_name() -> String {
        format!("Setting_{}", T::schema_name())
    }

    fn json_schema(generator: &mut schemars::r#gen::SchemaGenerator) -> schemars::schema::Schema {
        use schemars::schema::{Schema, SchemaObject, SubschemaValidation};
        let fixed = generator.subschema_for::<T>();
        let from_option = generator.subschema_for::<OptionRef<T>>();
        Schema::Object(SchemaObject {
            subschemas: Some(Box::new(SubschemaValidation {
                any_of: Some(vec![fixed, from_option]),
                ..Default::default()
            })),
            ..Default::default()
        })
    }
}
