//! Type-checks an expression's syntax tree and compiles it into typed nodes.
//!
//! Every name of the language is declared once, in [`NAMES`] and [`FUNCTIONS`], with its type,
//! the moments where it has a meaning, and a sentence of documentation (shown by `sow explain`
//! and the README). Option comparisons fold to constants here, so the engine never sees them.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::expr::{BinaryOp, Node, NodeKind, Span, UnaryOp};
use crate::rules::{
    Aggregate, ArithOp, BoolX, CmpOp, DirX, HoleX, IntX, PlayerX, Quantifier, SetX, VarInfo,
};
use crate::ruleset::VarKind;

/// The facts an expression can read depend on when it is evaluated.
pub mod facts {
    /// `here`: the hole just sown (at a drop) or the last hole of the lap.
    pub const HERE: u32 = 1;
    /// `last`: the hole the lap's last seed fell into.
    pub const LAST: u32 = 2;
    /// `origin`: the hole the move starts from (the hole tried, in legality clauses).
    pub const ORIGIN: u32 = 4;
    /// `lap_origin`: the hole the current lap was lifted from.
    pub const LAP: u32 = 8;
    /// `hole`: the hole a chain is at, or the hole of an aggregate's set being read.
    pub const BOUND: u32 = 16;
    /// `last_seed`: whether this drop is the lap's last.
    pub const DROP: u32 = 32;
    /// `move_captures`, `reached_opponent`: what the move has done so far.
    pub const MOVE: u32 = 64;
    /// `hand`: the seeds in hand as a seed is about to be sown (in skip clauses).
    pub const HAND: u32 = 128;
    /// `round_winner`: the winner of the round just ended (in round-end effects).
    pub const ROUND: u32 = 256;
    /// `chosen`: the hole the mover chose (in a capture clause with `choose`).
    pub const CHOSEN: u32 = 512;
}

/// A type of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Bool,
    Number,
    Hole,
    Player,
    Text,
    Option,
    Direction,
    Set,
}

impl Type {
    pub fn word(self) -> &'static str {
        match self {
            Type::Bool => "a condition (true or false)",
            Type::Number => "a number",
            Type::Hole => "a hole",
            Type::Player => "a player",
            Type::Direction => "a direction",
            Type::Text => "a string",
            Type::Option => "an option's value",
            Type::Set => "a set of holes",
        }
    }
}

/// A name of the language without arguments.
pub struct NameDoc {
    pub name: &'static str,
    pub ty: Type,
    pub needs: u32,
    pub doc: &'static str,
}

/// A function of the language.
pub struct FunctionDoc {
    pub name: &'static str,
    pub args: &'static [Type],
    pub ty: Type,
    pub doc: &'static str,
}

pub const NAMES: &[NameDoc] = &[
    NameDoc {
        name: "here",
        ty: Type::Hole,
        needs: facts::HERE,
        doc: "the hole just sown (at a drop), or the last hole of the lap",
    },
    NameDoc {
        name: "last",
        ty: Type::Hole,
        needs: facts::LAST,
        doc: "the hole the last seed of the lap fell into",
    },
    NameDoc {
        name: "origin",
        ty: Type::Hole,
        needs: facts::ORIGIN,
        doc: "the hole the move starts from (in legality clauses: the hole tried)",
    },
    NameDoc {
        name: "chosen",
        ty: Type::Hole,
        needs: facts::CHOSEN,
        doc: "the hole the mover chose of the capture clause's `choose` set",
    },
    NameDoc {
        name: "lap_origin",
        ty: Type::Hole,
        needs: facts::LAP,
        doc: "the hole the current lap was lifted from",
    },
    NameDoc {
        name: "hole",
        ty: Type::Hole,
        needs: facts::BOUND,
        doc: "in a chain: the hole just taken; in `take_seeds` and a capture's `player`: the hole taken; in a relay's `lift`: the hole lifted; in an aggregate's body: each hole of its set in turn",
    },
    NameDoc {
        name: "mover",
        ty: Type::Player,
        needs: 0,
        doc: "the player making the move (in endings: see the ending)",
    },
    NameDoc {
        name: "opponent",
        ty: Type::Player,
        needs: 0,
        doc: "the other player",
    },
    NameDoc {
        name: "starter",
        ty: Type::Player,
        needs: 0,
        doc: "the player who made the first move of the game or round",
    },
    NameDoc {
        name: "round_winner",
        ty: Type::Player,
        needs: facts::ROUND,
        doc: "the winner of the round just ended, or nobody after a draw",
    },
    NameDoc {
        name: "south",
        ty: Type::Player,
        needs: 0,
        doc: "South, holes s1..sN",
    },
    NameDoc {
        name: "north",
        ty: Type::Player,
        needs: 0,
        doc: "North, holes n1..nN",
    },
    NameDoc {
        name: "holes",
        ty: Type::Number,
        needs: 0,
        doc: "holes in a row",
    },
    NameDoc {
        name: "board_seeds",
        ty: Type::Number,
        needs: 0,
        doc: "seeds in all holes (stores excluded)",
    },
    NameDoc {
        name: "move_captures",
        ty: Type::Number,
        needs: facts::MOVE,
        doc: "seeds the mover has captured during this move",
    },
    NameDoc {
        name: "turn_sowings",
        ty: Type::Number,
        needs: 0,
        doc: "sowings the mover has made this turn, this one included once it has started",
    },
    NameDoc {
        name: "hand",
        ty: Type::Number,
        needs: facts::HAND,
        doc: "in a skip clause: the seeds in hand, the one about to be sown included",
    },
    NameDoc {
        name: "lap",
        ty: Type::Number,
        needs: facts::LAP,
        doc: "the number of the lap being sown, 1 for the move's first (after the move: its last lap's)",
    },
    NameDoc {
        name: "entered",
        ty: Type::Number,
        needs: facts::ORIGIN,
        doc: "the seeds the move enters from what the mover holds (`[entry]`; in legality clauses: the entry tried); 0 for a move sown from a hole",
    },
    NameDoc {
        name: "resowing",
        ty: Type::Bool,
        needs: facts::LAP,
        doc: "whether the lap being sown is captured seeds sown again (`then = \"sow\"`; after the move: its last lap)",
    },
    NameDoc {
        name: "last_seed",
        ty: Type::Bool,
        needs: facts::DROP,
        doc: "at a drop: whether it is the lap's last seed",
    },
    NameDoc {
        name: "piece_dropped",
        ty: Type::Bool,
        needs: facts::DROP,
        doc: "at a drop: whether what fell is a piece (`[pieces]`), not a seed",
    },
    NameDoc {
        name: "landed_on",
        ty: Type::Number,
        needs: facts::LAST,
        doc: "the seeds and pieces the hole of the lap's last seed held just before it fell, whatever a capture at that drop took since",
    },
    NameDoc {
        name: "first_move",
        ty: Type::Bool,
        needs: 0,
        doc: "whether the mover has not yet moved in this game or round",
    },
    NameDoc {
        name: "reached_opponent",
        ty: Type::Bool,
        needs: facts::MOVE,
        doc: "whether the move has dropped a seed into an opponent's hole",
    },
    NameDoc {
        name: "direction",
        ty: Type::Direction,
        needs: facts::ORIGIN,
        doc: "the direction of the lap being sown: the move's, unless a relay turned it (`reverse`); after the move, its last lap's; in legality clauses, the one tried",
    },
    NameDoc {
        name: "ccw",
        ty: Type::Direction,
        needs: 0,
        doc: "counter-clockwise, a direction",
    },
    NameDoc {
        name: "cw",
        ty: Type::Direction,
        needs: 0,
        doc: "clockwise, a direction",
    },
    NameDoc {
        name: "none",
        ty: Type::Direction,
        needs: 0,
        doc: "no direction: what a direction variable holds until it is set",
    },
    NameDoc {
        name: "all_holes",
        ty: Type::Set,
        needs: 0,
        doc: "every hole on the board (no store), a set for aggregates",
    },
];

pub const FUNCTIONS: &[FunctionDoc] = &[
    FunctionDoc {
        name: "seeds",
        args: &[Type::Hole],
        ty: Type::Number,
        doc: "seeds in a hole or store (0 for no hole)",
    },
    FunctionDoc {
        name: "number",
        args: &[Type::Hole],
        ty: Type::Number,
        doc: "a hole's number in its label (s3 and n3 are 3, a ring's r7 is 7): where each player owns a row, counted from its owner's left; hole(p, k) names a player's k-th hole in their own numbering",
    },
    FunctionDoc {
        name: "next",
        args: &[Type::Hole],
        ty: Type::Hole,
        doc: "the following hole in the mover's sowing direction",
    },
    FunctionDoc {
        name: "ahead",
        args: &[Type::Hole, Type::Number],
        ty: Type::Hole,
        doc: "the hole k holes on from h in the mover's sowing direction: ahead(h, 0) is h, ahead(h, 1) is next(h), a negative k goes back",
    },
    FunctionDoc {
        name: "first_after",
        args: &[Type::Hole, Type::Bool],
        ty: Type::Hole,
        doc: "the first hole after h, going on round the mover's circuit in the sowing direction, where a condition holds, `hole` being each in turn and h itself the last tried; no hole when none: first_after(last, seeds(hole) > 0)",
    },
    FunctionDoc {
        name: "first_before",
        args: &[Type::Hole, Type::Bool],
        ty: Type::Hole,
        doc: "the first hole before h, going back round the mover's circuit against the sowing direction, where a condition holds, `hole` being each in turn and h itself the last tried; no hole when none: first_before(origin, seeds(hole) == 0)",
    },
    FunctionDoc {
        name: "prev",
        args: &[Type::Hole],
        ty: Type::Hole,
        doc: "the preceding hole in the mover's sowing direction",
    },
    FunctionDoc {
        name: "opposite",
        args: &[Type::Hole],
        ty: Type::Hole,
        doc: "the hole facing it across the board",
    },
    FunctionDoc {
        name: "behind",
        args: &[Type::Hole],
        ty: Type::Hole,
        doc: "four rows: the same player's hole in the other row of the same column",
    },
    FunctionDoc {
        name: "hole",
        args: &[Type::Player, Type::Number],
        ty: Type::Hole,
        doc: "a player's hole by number, e.g. hole(mover, holes) is the mover's rightmost",
    },
    FunctionDoc {
        name: "max_seeds",
        args: &[Type::Player],
        ty: Type::Number,
        doc: "the most seeds in any one of a player's holes",
    },
    FunctionDoc {
        name: "claim",
        args: &[Type::Player],
        ty: Type::Hole,
        doc: "the hole a player has claimed (see `claim` in capture clauses), or no hole",
    },
    FunctionDoc {
        name: "claimed",
        args: &[Type::Hole],
        ty: Type::Bool,
        doc: "whether the hole is a player's claimed hole",
    },
    FunctionDoc {
        name: "owner",
        args: &[Type::Hole],
        ty: Type::Player,
        doc: "the player owning a hole or store",
    },
    FunctionDoc {
        name: "own",
        args: &[Type::Hole],
        ty: Type::Bool,
        doc: "whether the mover owns the hole",
    },
    FunctionDoc {
        name: "neutral",
        args: &[Type::Hole],
        ty: Type::Bool,
        doc: "whether the hole is neutral: owned by nobody (`[board] neutral`)",
    },
    FunctionDoc {
        name: "is_store",
        args: &[Type::Hole],
        ty: Type::Bool,
        doc: "whether the position is a store",
    },
    FunctionDoc {
        name: "closed",
        args: &[Type::Hole],
        ty: Type::Bool,
        doc: "whether the hole is closed",
    },
    FunctionDoc {
        name: "store",
        args: &[Type::Player],
        ty: Type::Number,
        doc: "seeds a player holds in their store or reserve",
    },
    FunctionDoc {
        name: "pieces",
        args: &[Type::Hole],
        ty: Type::Number,
        doc: "the pieces (`[pieces]`) in a hole, which its seeds count too",
    },
    FunctionDoc {
        name: "pieces_held",
        args: &[Type::Player],
        ty: Type::Number,
        doc: "the pieces (`[pieces]`) a player holds off the board",
    },
    FunctionDoc {
        name: "row_seeds",
        args: &[Type::Player],
        ty: Type::Number,
        doc: "seeds in a player's holes",
    },
    FunctionDoc {
        name: "if",
        args: &[Type::Bool, Type::Number, Type::Number],
        ty: Type::Number,
        doc: "a number (or a hole, a player, a direction, a condition) chosen by a condition: if(c, a, b) is a where c holds, else b",
    },
    FunctionDoc {
        name: "holes_of",
        args: &[Type::Player],
        ty: Type::Set,
        doc: "every hole a player owns (both rows on four-row boards), a set for aggregates",
    },
    FunctionDoc {
        name: "inner_row",
        args: &[Type::Player],
        ty: Type::Set,
        doc: "a player's row facing the opponent (on two rows, their one row)",
    },
    FunctionDoc {
        name: "outer_row",
        args: &[Type::Player],
        ty: Type::Set,
        doc: "four rows: a player's back row (empty on two-row boards)",
    },
    FunctionDoc {
        name: "count",
        args: &[Type::Set, Type::Bool],
        ty: Type::Number,
        doc: "the holes of a set where a condition holds, `hole` being each in turn: count(holes_of(mover), seeds(hole) == 0)",
    },
    FunctionDoc {
        name: "filter",
        args: &[Type::Set, Type::Bool],
        ty: Type::Set,
        doc: "the holes of a set where a condition holds, `hole` being each in turn: filter(holes_of(opponent), seeds(hole) in [2, 4, 6])",
    },
    FunctionDoc {
        name: "sum",
        args: &[Type::Set, Type::Number],
        ty: Type::Number,
        doc: "a number added up over a set's holes: sum(inner_row(opponent), seeds(hole))",
    },
    FunctionDoc {
        name: "max",
        args: &[Type::Set, Type::Number],
        ty: Type::Number,
        doc: "the largest value of a number over a set's holes (0 for an empty set)",
    },
    FunctionDoc {
        name: "min",
        args: &[Type::Set, Type::Number],
        ty: Type::Number,
        doc: "the smallest value of a number over a set's holes (0 for an empty set)",
    },
    FunctionDoc {
        name: "any",
        args: &[Type::Set, Type::Bool],
        ty: Type::Bool,
        doc: "whether a condition holds at some hole of a set: any(holes_of(opponent), seeds(hole) > 3)",
    },
    FunctionDoc {
        name: "all",
        args: &[Type::Set, Type::Bool],
        ty: Type::Bool,
        doc: "whether a condition holds at every hole of a set (true for an empty set)",
    },
];

/// The functions whose second argument is read at each hole in turn, `hole` naming it: the
/// holes of the set given first, or (`first_after`) the holes round the circuit from the hole
/// given first.
pub const AGGREGATES: &[&str] = &[
    "count",
    "filter",
    "sum",
    "max",
    "min",
    "any",
    "all",
    "first_after",
    "first_before",
];

/// An option as seen by expressions: its value in force and its allowed values.
pub struct OptionScope<'a> {
    pub value: &'a str,
    pub values: &'a [String],
    /// Where the option is declared in the file (a place in the file, not in the
    /// expression), for a label on the problems it explains.
    pub declared: Option<std::ops::Range<usize>>,
}

/// What an expression may refer to.
pub struct Scope<'a> {
    pub facts: u32,
    /// Where the expression is, for messages ("in a legality clause").
    pub place: &'a str,
    pub options: &'a BTreeMap<String, OptionScope<'a>>,
    /// Options read by this expression, for the "option never used" warning.
    pub used: &'a std::cell::RefCell<std::collections::BTreeSet<String>>,
    /// Warnings found while compiling (a comparison that can never hold).
    pub warnings: &'a std::cell::RefCell<Vec<Diagnostic>>,
    /// The rules' variables, by name.
    pub vars: &'a BTreeMap<String, VarInfo>,
    /// The ruleset's named sets of holes (`[board.sets]`), as masks of positions.
    pub sets: &'a BTreeMap<String, crate::rules::Mask>,
    /// The players' names, in turn order.
    pub players: &'a [String],
    /// The board's holes by label (`s4`), which expressions may name.
    pub labels: &'a [(String, crate::rules::Pos)],
}

/// A compiled value, or every error found in the expression. The spans of errors count from
/// the start of the expression text; the places of their other labels are places in the file.
pub type Checked<T> = Result<T, Vec<Diagnostic>>;

/// Both values, or the errors of either or both.
fn both<A, B>(a: Checked<A>, b: Checked<B>) -> Checked<(A, B)> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(mut x), Err(y)) => {
            x.extend(y);
            Err(x)
        }
        (Err(x), _) | (_, Err(x)) => Err(x),
    }
}

/// Every value, or every error.
fn all<T>(items: impl IntoIterator<Item = Checked<T>>) -> Checked<Vec<T>> {
    let mut values = Vec::new();
    let mut errors = Vec::new();
    for item in items {
        match item {
            Ok(v) => values.push(v),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(values)
    } else {
        Err(errors)
    }
}

/// A typed, compiled node.
enum Typed {
    Bool(BoolX),
    Number(IntX),
    Hole(HoleX),
    Player(PlayerX),
    Text(String),
    Option(String),
    Dir(DirX),
    Set(SetX),
}

impl Typed {
    fn ty(&self) -> Type {
        match self {
            Typed::Bool(_) => Type::Bool,
            Typed::Number(_) => Type::Number,
            Typed::Hole(_) => Type::Hole,
            Typed::Player(_) => Type::Player,
            Typed::Text(_) => Type::Text,
            Typed::Option(_) => Type::Option,
            Typed::Dir(_) => Type::Direction,
            Typed::Set(_) => Type::Set,
        }
    }
}

/// Compiles a condition. Spans in errors are relative to the expression text.
pub fn compile_bool(node: &Node, scope: &Scope<'_>) -> Checked<BoolX> {
    match compile(node, scope)? {
        Typed::Bool(b) => Ok(b),
        Typed::Number(_) => {
            Err(vec![mismatch(Type::Bool, Type::Number, &node.span).hint(
                format!("did you mean `{} > 0`?", crate::expr::show(node)),
            )])
        }
        other => Err(vec![mismatch(Type::Bool, other.ty(), &node.span)]),
    }
}

/// Compiles the value a variable of `kind` is given.
pub fn compile_value(
    node: &Node,
    scope: &Scope<'_>,
    kind: VarKind,
) -> Checked<crate::rules::VarValue> {
    use crate::rules::VarValue;
    match (kind, compile(node, scope)?) {
        (VarKind::Number, Typed::Number(x)) => Ok(VarValue::Number(x)),
        (VarKind::Flag, Typed::Bool(x)) => Ok(VarValue::Flag(x)),
        (VarKind::Direction, Typed::Dir(x)) => Ok(VarValue::Dir(x)),
        (kind, other) => {
            let want = match kind {
                VarKind::Number => Type::Number,
                VarKind::Flag => Type::Bool,
                VarKind::Direction => Type::Direction,
                VarKind::Holes => Type::Set,
            };
            Err(vec![mismatch(want, other.ty(), &node.span)])
        }
    }
}

/// Compiles a number expression.
pub fn compile_number(node: &Node, scope: &Scope<'_>) -> Checked<IntX> {
    number(node, scope)
}

/// Whether a name is one of the language's own (a variable may not take it).
pub fn is_builtin(name: &str) -> bool {
    NAMES.iter().any(|n| n.name == name) || FUNCTIONS.iter().any(|f| f.name == name)
}

/// Compiles a player expression.
pub fn compile_player(node: &Node, scope: &Scope<'_>) -> Checked<PlayerX> {
    match compile(node, scope)? {
        Typed::Player(p) => Ok(p),
        other => Err(vec![mismatch(Type::Player, other.ty(), &node.span)]),
    }
}

/// Compiles an expression that is a hole or a set of holes the mover chooses from (an entry's
/// `start`, a race's `from`).
pub fn compile_start(node: &Node, scope: &Scope<'_>) -> Checked<crate::rules::StartAt> {
    use crate::rules::StartAt;
    match compile(node, scope)? {
        Typed::Hole(h) => Ok(StartAt::Hole(h)),
        Typed::Set(s) => Ok(StartAt::Chosen(s)),
        other => {
            Err(vec![mismatch(Type::Hole, other.ty(), &node.span).hint(
                "a start is a hole, or a set of holes the mover chooses from",
            )])
        }
    }
}

/// Compiles a direction expression.
pub fn compile_direction(node: &Node, scope: &Scope<'_>) -> Checked<DirX> {
    match compile(node, scope)? {
        Typed::Dir(d) => Ok(d),
        other => Err(vec![mismatch(Type::Direction, other.ty(), &node.span)]),
    }
}

/// Compiles a hole expression.
pub fn compile_hole(node: &Node, scope: &Scope<'_>) -> Checked<HoleX> {
    match compile(node, scope)? {
        Typed::Hole(h) => Ok(h),
        other => Err(vec![mismatch(Type::Hole, other.ty(), &node.span)]),
    }
}

/// What `if(c, a, b)` chooses between.
const IF_HINT: &str = "`if(c, a, b)` chooses between two numbers, two holes, two players, two directions or two conditions";

/// Whether `if(c, a, b)` chooses between two values of this type.
fn chooses_between(ty: Type) -> bool {
    matches!(
        ty,
        Type::Number | Type::Hole | Type::Player | Type::Direction | Type::Bool
    )
}

/// `if(c, a, b)`, `a` and `b` of one type ([`chooses_between`]): a condition known when the
/// game is set up (an option) chooses once.
fn if_of(c: BoolX, a: Typed, b: Typed) -> Typed {
    if let BoolX::Const(c) = c {
        return if c { a } else { b };
    }
    let c = Box::new(c);
    match (a, b) {
        (Typed::Number(a), Typed::Number(b)) => Typed::Number(IntX::If(c, a.into(), b.into())),
        (Typed::Hole(a), Typed::Hole(b)) => Typed::Hole(HoleX::If(c, a.into(), b.into())),
        (Typed::Player(a), Typed::Player(b)) => Typed::Player(PlayerX::If(c, a.into(), b.into())),
        (Typed::Dir(a), Typed::Dir(b)) => Typed::Dir(DirX::If(c, a.into(), b.into())),
        // Between two conditions: `(c and a) or (not c and b)`, which reads the same (reading
        // a condition changes nothing).
        (Typed::Bool(a), Typed::Bool(b)) => Typed::Bool(BoolX::Or(
            Box::new(BoolX::And(c.clone(), Box::new(a))),
            Box::new(BoolX::And(Box::new(BoolX::Not(c)), Box::new(b))),
        )),
        // The types were checked to be one of those, and the same.
        (a, _) => a,
    }
}

fn mismatch(want: Type, got: Type, span: &Span) -> Diagnostic {
    Diagnostic::new(
        Code::ExprType,
        format!("expected {}, found {}", want.word(), got.word()),
    )
    .at(span.clone())
    .label(got.word())
}

fn compile(node: &Node, scope: &Scope<'_>) -> Checked<Typed> {
    let span = &node.span;
    Ok(match &node.kind {
        NodeKind::Number(v) => Typed::Number(IntX::Const(*v)),
        NodeKind::Bool(b) => Typed::Bool(BoolX::Const(*b)),
        NodeKind::Text(t) => Typed::Text(t.clone()),
        NodeKind::Name(name) => name_node(name, span, scope).map_err(|d| vec![d])?,
        NodeKind::Call(name, name_span, args) => call_node(name, name_span, args, span, scope)?,
        NodeKind::Unary(UnaryOp::Not, x) => Typed::Bool(not(compile_bool(x, scope)?)),
        NodeKind::Unary(UnaryOp::Neg, x) => match compile(x, scope)? {
            Typed::Number(IntX::Const(v)) => Typed::Number(IntX::Const(v.saturating_neg())),
            Typed::Number(n) => Typed::Number(IntX::Neg(Box::new(n))),
            other => return Err(vec![mismatch(Type::Number, other.ty(), &x.span)]),
        },
        NodeKind::Binary(op, a, b) => binary(*op, a, b, span, scope)?,
        NodeKind::InSet(x, set) => {
            let (h, s) = both(compile_hole(x, scope), compile_set(set, scope))?;
            Typed::Bool(BoolX::InSet(h, s))
        }
        NodeKind::In(x, items) => {
            let (value, items) = both(
                number(x, scope),
                all(items.iter().map(|item| list_item(item, scope))),
            )?;
            let mut mask: u128 = 0;
            let mut test = None;
            for item in items {
                match item {
                    IntX::Const(v) => mask |= 1u128 << v,
                    // Known when the game starts (`holes`): tested with `==`.
                    other => {
                        let eq = BoolX::Int(CmpOp::Eq, value.clone(), other);
                        test = Some(match test {
                            None => eq,
                            Some(t) => BoolX::Or(Box::new(t), Box::new(eq)),
                        });
                    }
                }
            }
            let listed = BoolX::In(value, mask);
            Typed::Bool(match test {
                None => listed,
                Some(t) if mask == 0 => t,
                Some(t) => BoolX::Or(Box::new(listed), Box::new(t)),
            })
        }
    })
}

/// An item of a list after `in`: a number from 0 to 127, or a number known when the game
/// starts.
fn list_item(item: &Node, scope: &Scope<'_>) -> Checked<IntX> {
    match number(item, scope)? {
        IntX::Const(v) if (0..128).contains(&v) => Ok(IntX::Const(v)),
        IntX::Const(_) => Err(vec![
            Diagnostic::new(
                Code::ExprListRange,
                "a list after `in` may hold only whole numbers from 0 to 127",
            )
            .at(item.span.clone()),
        ]),
        x if fixed_for_the_game(&x) => Ok(x),
        _ => Err(vec![
            Diagnostic::new(
                Code::ExprListNotConstant,
                "a list after `in` holds numbers known when the game starts",
            )
            .at(item.span.clone())
            .label("this changes during play")
            .hint("compare with `==` and join with `or` to test values that change"),
        ]),
    }
}

/// Whether a number is the same all game long: numbers, `holes`, and arithmetic on them.
fn fixed_for_the_game(x: &IntX) -> bool {
    match x {
        IntX::Const(_) | IntX::HolesPerRow => true,
        IntX::Neg(a) => fixed_for_the_game(a),
        IntX::Arith(_, a, b) => fixed_for_the_game(a) && fixed_for_the_game(b),
        _ => false,
    }
}

/// The least value a number can take, where it is known: counts are never negative.
fn least(x: &IntX) -> Option<i64> {
    match x {
        IntX::Const(v) => Some(*v),
        IntX::Seeds(_)
        | IntX::Number(_)
        | IntX::Store(_)
        | IntX::RowSeeds(_)
        | IntX::MaxSeeds(_)
        | IntX::BoardSeeds
        | IntX::HolesPerRow
        | IntX::MoveCaptures
        | IntX::TurnSowings
        | IntX::Hand
        | IntX::Lap
        | IntX::Entered
        | IntX::Pieces(_)
        | IntX::PiecesHeld(_)
        | IntX::LandedOn
        | IntX::Count(..) => Some(0),
        IntX::Over(_, _, body) => least(body).filter(|&low| low >= 0).map(|_| 0),
        IntX::If(_, a, b) => Some(least(a)?.min(least(b)?)),
        IntX::Arith(ArithOp::Add | ArithOp::Mul | ArithOp::Div | ArithOp::Rem, a, b) => {
            (least(a)? >= 0 && least(b)? >= 0).then_some(0)
        }
        _ => None,
    }
}

/// Whether `x cmp k` can never hold, `x` never less than `low`.
fn never(cmp: CmpOp, low: i64, k: i64) -> bool {
    match cmp {
        CmpOp::Eq | CmpOp::Le => k < low,
        CmpOp::Lt => k <= low,
        CmpOp::Ne | CmpOp::Gt | CmpOp::Ge => false,
    }
}

fn number(node: &Node, scope: &Scope<'_>) -> Checked<IntX> {
    match compile(node, scope)? {
        Typed::Number(n) => Ok(n),
        other => Err(vec![mismatch(Type::Number, other.ty(), &node.span)]),
    }
}

fn not(b: BoolX) -> BoolX {
    match b {
        BoolX::Const(v) => BoolX::Const(!v),
        other => BoolX::Not(Box::new(other)),
    }
}

fn name_node(name: &str, span: &Span, scope: &Scope<'_>) -> Result<Typed, Diagnostic> {
    if let Some(option) = name.strip_prefix("option.") {
        if scope.options.contains_key(option) {
            scope.used.borrow_mut().insert(option.to_string());
            return Ok(Typed::Option(option.to_string()));
        }
        let d = Diagnostic::new(
            Code::ExprUnknownOption,
            format!("unknown option `{option}`"),
        )
        .at(span.clone());
        return Err(
            match did_you_mean(option, scope.options.keys().map(String::as_str)) {
                Some(s) => d.hint(format!("did you mean `option.{s}`?")),
                None => d.hint("declare it under [options]"),
            },
        );
    }
    if let Some(set) = name.strip_prefix("sets.") {
        if let Some(&mask) = scope.sets.get(set) {
            return Ok(Typed::Set(SetX::Named(mask)));
        }
        let d =
            Diagnostic::new(Code::ExprUnknownName, format!("unknown set `{set}`")).at(span.clone());
        return Err(
            match did_you_mean(set, scope.sets.keys().map(String::as_str)) {
                Some(s) => d.hint(format!("did you mean `sets.{s}`?")),
                None => d.hint("declare it under [board.sets], e.g. `left_end = [\"s1\", \"s2\"]`"),
            },
        );
    }
    if let Some(var) = scope.vars.get(name) {
        if var.per_player {
            return Err(Diagnostic::new(
                Code::ExprFunctionWithoutArguments,
                format!("`{name}` is a variable each player has: say whose"),
            )
            .at(span.clone())
            .hint(format!("write `{name}(mover)`, `{name}(opponent)`, ...")));
        }
        return Ok(match var.kind {
            VarKind::Number => Typed::Number(IntX::Var(var.slot)),
            VarKind::Flag => Typed::Bool(BoolX::Var(var.slot)),
            VarKind::Direction => Typed::Dir(DirX::Var(var.slot)),
            VarKind::Holes => Typed::Set(SetX::Var(var.slot)),
        });
    }
    let default_players = scope.players.len() == 2
        && scope.players.first().is_some_and(|p| p == "south")
        && scope.players.get(1).is_some_and(|p| p == "north");
    if !default_players {
        if let Some(i) = scope.players.iter().position(|p| p == name) {
            return Ok(Typed::Player(PlayerX::Fixed(i as u8)));
        }
        if name == "south" || name == "north" {
            return Err(Diagnostic::new(
                Code::UnknownPlayer,
                format!("`{name}` is not one of this game's players"),
            )
            .at(span.clone())
            .hint(format!("the players are {}", scope.players.join(", "))));
        }
    }
    if let Some(&(_, h)) = scope.labels.iter().find(|(l, _)| l == name) {
        return Ok(Typed::Hole(HoleX::At(h)));
    }
    if name == "opponent" && scope.players.len() > 2 {
        return Err(Diagnostic::new(
            Code::SeatsUnsupported,
            format!(
                "`opponent` names the other player of a two-player game; this one has {}",
                scope.players.len()
            ),
        )
        .at(span.clone())
        .hint("name the player meant: `owner(h)`, `mover`, or a player by name"));
    }
    let Some(doc) = NAMES.iter().find(|n| n.name == name) else {
        if FUNCTIONS.iter().any(|f| f.name == name) {
            return Err(Diagnostic::new(
                Code::ExprFunctionWithoutArguments,
                format!("`{name}` is a function and needs arguments"),
            )
            .at(span.clone())
            .hint(format!("write it as `{name}(...)`")));
        }
        let d = Diagnostic::new(Code::ExprUnknownName, format!("unknown name `{name}`"))
            .at(span.clone());
        let all = NAMES.iter().map(|n| n.name);
        return Err(match did_you_mean(name, all) {
            Some(s) => d.hint(format!("did you mean `{s}`?")),
            None => d.hint(format!(
                "the names are: {}",
                NAMES.iter().map(|n| n.name).collect::<Vec<_>>().join(", ")
            )),
        });
    };
    if doc.needs & scope.facts != doc.needs {
        let d = Diagnostic::new(
            Code::ExprNoMeaningHere,
            format!("`{name}` has no meaning {}", scope.place),
        );
        return Err(match meaningful(doc.needs) {
            // The name's own words, the fact's places (names sharing a fact differ in what
            // they are: `lap_origin` and `lap`).
            Some((_, places)) => d.hint(format!("`{name}` ({}) can be read {places}", doc.doc)),
            None => d,
        }
        .at(span.clone()));
    }
    Ok(match name {
        "here" => Typed::Hole(HoleX::Here),
        "last" => Typed::Hole(HoleX::Last),
        "origin" => Typed::Hole(HoleX::Origin),
        "lap_origin" => Typed::Hole(HoleX::LapOrigin),
        "chosen" => Typed::Hole(HoleX::Chosen),
        "hole" => Typed::Hole(HoleX::Bound),
        "mover" => Typed::Player(PlayerX::Mover),
        "opponent" => Typed::Player(PlayerX::Opponent),
        "starter" => Typed::Player(PlayerX::Starter),
        "round_winner" => Typed::Player(PlayerX::RoundWinner),
        "south" => Typed::Player(PlayerX::Fixed(0)),
        "north" => Typed::Player(PlayerX::Fixed(1)),
        "holes" => Typed::Number(IntX::HolesPerRow),
        "board_seeds" => Typed::Number(IntX::BoardSeeds),
        "move_captures" => Typed::Number(IntX::MoveCaptures),
        "turn_sowings" => Typed::Number(IntX::TurnSowings),
        "hand" => Typed::Number(IntX::Hand),
        "lap" => Typed::Number(IntX::Lap),
        "entered" => Typed::Number(IntX::Entered),
        "resowing" => Typed::Bool(BoolX::Resowing),
        "last_seed" => Typed::Bool(BoolX::LastSeed),
        "piece_dropped" => Typed::Bool(BoolX::PieceDropped),
        "landed_on" => Typed::Number(IntX::LandedOn),
        "first_move" => Typed::Bool(BoolX::FirstMove),
        "direction" => Typed::Dir(DirX::Move),
        "none" => Typed::Dir(DirX::Const(0)),
        "ccw" => Typed::Dir(DirX::Const(1)),
        "cw" => Typed::Dir(DirX::Const(2)),
        "all_holes" => Typed::Set(SetX::All),
        _ => Typed::Bool(BoolX::ReachedOpponent),
    })
}

/// What a fact is and where it can be read, for the message on a name read where it has no
/// meaning. (The facts each place provides are set in the checker, `check/mod.rs`.)
fn meaningful(needs: u32) -> Option<(&'static str, &'static str)> {
    let during_move =
        "in capture clauses, relay conditions, extra-turn clauses and `require_after`";
    Some(match needs {
        facts::HERE => ("the hole just sown", during_move),
        facts::LAST => (
            "the hole the lap's last seed fell into",
            "in `require_after` and `prefer_after`, in capture clauses at \"lap_end\" or \"move_end\", in relay conditions and in extra-turn clauses",
        ),
        facts::ORIGIN => (
            "the hole the move starts from",
            "in legality clauses (the hole tried), in the clauses read during a move and after it, and in an arrangement's `put` and `pick` (the hole tried); not in conditions read with no move, such as endings, an entry's `when`, `seeds` and `start`, a preference's `when`, or an arrangement's `done`",
        ),
        facts::LAP => (
            "the hole the current lap was lifted from",
            "in capture clauses, relay conditions, extra-turn clauses and `[[sowing.skip]]` clauses",
        ),
        facts::BOUND => (
            "the hole a chain has just taken, the hole a capture takes part of, the hole a relay lifts, or an aggregate's hole",
            "only in a chain's `while` and `step`, a capture's `take_seeds` and `player`, a relay's `lift`, and in the body of an aggregate such as `count(holes_of(mover), seeds(hole) == 0)`",
        ),
        facts::DROP => (
            "whether the seed just dropped is the lap's last",
            "only in capture clauses at \"drop\"",
        ),
        facts::MOVE => ("what the move has done so far", during_move),
        facts::HAND => (
            "the seeds in hand as a seed is about to be sown",
            "only in `[[sowing.skip]]` clauses",
        ),
        facts::ROUND => (
            "the winner of the round just ended",
            "only in effects at \"round_end\"",
        ),
        facts::CHOSEN => (
            "the hole the mover chose",
            "only in a capture clause that has `choose`, in its `take`, `take_set`, `take_seeds`, `chain`, `cancel_if`, `sow_after`, `sow_direction` and `lift_also` (not in its `when`, read before the choice)",
        ),
        _ => return None,
    })
}

/// `NAME(player)`: a variable each player has, read for one player.
fn var_of(
    var: &VarInfo,
    name: &str,
    args: &[Node],
    span: &Span,
    compiled: Checked<Vec<Typed>>,
) -> Checked<Typed> {
    let args_typed = compiled?;
    if !var.per_player {
        return Err(vec![
            Diagnostic::new(
                Code::ExprArity,
                format!("`{name}` is one variable for the whole game: it takes no player"),
            )
            .at(span.clone())
            .hint(format!("write `{name}`")),
        ]);
    }
    match (args_typed.as_slice(), args) {
        ([Typed::Player(p)], _) => {
            let p = Box::new(p.clone());
            Ok(match var.kind {
                VarKind::Number => Typed::Number(IntX::VarOf(var.slot, p)),
                VarKind::Flag => Typed::Bool(BoolX::VarOf(var.slot, p)),
                VarKind::Direction => Typed::Dir(DirX::VarOf(var.slot, p)),
                VarKind::Holes => Typed::Set(SetX::VarOf(var.slot, p)),
            })
        }
        ([other], [node]) => Err(vec![mismatch(Type::Player, other.ty(), &node.span)]),
        _ => Err(vec![
            Diagnostic::new(
                Code::ExprArity,
                format!(
                    "`{name}` takes one argument, the player whose it is, found {}",
                    args.len()
                ),
            )
            .at(span.clone()),
        ]),
    }
}

fn call_node(
    name: &str,
    name_span: &Span,
    args: &[Node],
    span: &Span,
    scope: &Scope<'_>,
) -> Checked<Typed> {
    // An aggregate's body is read at each hole of its set, where `hole` names that hole.
    let bound = Scope {
        facts: scope.facts | facts::BOUND,
        ..*scope
    };
    let aggregate = AGGREGATES.contains(&name);
    // The arguments are compiled whatever the function, so that their errors are found too.
    let compiled = all((0..)
        .zip(args)
        .map(|(i, a)| compile(a, if aggregate && i == 1 { &bound } else { scope })));
    if let Some(var) = scope.vars.get(name) {
        return var_of(var, name, args, span, compiled);
    }
    let Some(doc) = FUNCTIONS.iter().find(|f| f.name == name) else {
        let d = Diagnostic::new(
            Code::ExprUnknownFunction,
            format!("unknown function `{name}`"),
        )
        .at(name_span.clone());
        let d = match did_you_mean(name, FUNCTIONS.iter().map(|f| f.name)) {
            Some(s) => d.hint(format!("did you mean `{s}`?")),
            None => d.hint(format!(
                "the functions are: {}",
                FUNCTIONS
                    .iter()
                    .map(|f| f.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        return Err(both(Err::<(), _>(vec![d]), compiled)
            .err()
            .unwrap_or_default());
    };
    if args.len() != doc.args.len() {
        let d = Diagnostic::new(
            Code::ExprArity,
            format!(
                "`{name}` takes {} argument{}, found {}",
                doc.args.len(),
                if doc.args.len() == 1 { "" } else { "s" },
                args.len()
            ),
        )
        .at(span.clone());
        return Err(both(Err::<(), _>(vec![d]), compiled)
            .err()
            .unwrap_or_default());
    }
    let compiled = compiled?;
    if name == "if"
        && let ([_, a, b], [_, _, b_arg]) = (compiled.as_slice(), args)
        && a.ty() != b.ty()
        && chooses_between(a.ty())
    {
        // Both choices are of one type: the second is read against the first.
        return Err(vec![mismatch(a.ty(), b.ty(), &b_arg.span).hint(IF_HINT)]);
    }
    if name == "if"
        && let [Typed::Bool(_), a, _] = compiled.as_slice()
        && chooses_between(a.ty())
    {
        let mut args = compiled.into_iter();
        return Ok(match (args.next(), args.next(), args.next()) {
            (Some(Typed::Bool(c)), Some(a), Some(b)) => if_of(c, a, b),
            // The arguments' shape was matched just above.
            _ => Typed::Number(IntX::Const(0)),
        });
    }
    let mut errors = Vec::new();
    for ((arg, want), t) in args.iter().zip(doc.args).zip(&compiled) {
        if t.ty() != *want {
            let d = mismatch(*want, t.ty(), &arg.span);
            errors.push(if *want == Type::Hole && t.ty() == Type::Number {
                d.hint(format!(
                    "`{name}` takes a hole: `hole(mover, {})` is the mover's hole of that number",
                    crate::expr::show(arg)
                ))
            } else if name == "if" {
                d.hint(IF_HINT)
            } else {
                d.hint(format!("`{name}` takes {}", want.word()))
            });
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if name == "first_after" || name == "first_before" {
        let mut args = compiled.into_iter();
        return Ok(match (args.next(), args.next()) {
            (Some(Typed::Hole(h)), Some(Typed::Bool(c))) => Typed::Hole(HoleX::FirstAfter(
                Box::new(h),
                Box::new(c),
                name == "first_after",
            )),
            // The arguments' types were checked against the declaration.
            _ => Typed::Hole(HoleX::Here),
        });
    }
    if aggregate {
        return Ok(aggregate_of(name, compiled));
    }
    let typed = compiled;
    let mut typed = typed.into_iter();
    let mut hole = || match typed.next() {
        Some(Typed::Hole(h)) => h,
        _ => HoleX::Here,
    };
    Ok(match name {
        "seeds" => Typed::Number(IntX::Seeds(hole())),
        "pieces" => Typed::Number(IntX::Pieces(hole())),
        "number" => Typed::Number(IntX::Number(hole())),
        "next" => Typed::Hole(HoleX::Next(Box::new(hole()))),
        "ahead" => {
            let base = hole();
            let n = match typed.next() {
                Some(Typed::Number(n)) => n,
                _ => IntX::Const(0),
            };
            Typed::Hole(HoleX::Ahead(Box::new(base), Box::new(n)))
        }
        "prev" => Typed::Hole(HoleX::Prev(Box::new(hole()))),
        "opposite" => Typed::Hole(HoleX::Opposite(Box::new(hole()))),
        "behind" => Typed::Hole(HoleX::Behind(Box::new(hole()))),
        "owner" => Typed::Player(PlayerX::Owner(Box::new(hole()))),
        "own" => Typed::Bool(BoolX::Own(hole())),
        "is_store" => Typed::Bool(BoolX::IsStore(hole())),
        "neutral" => Typed::Bool(BoolX::Neutral(hole())),
        "closed" => Typed::Bool(BoolX::IsClosed(hole())),
        "claimed" => Typed::Bool(BoolX::Claimed(hole())),
        "store" | "row_seeds" | "max_seeds" | "hole" | "claim" | "holes_of" | "inner_row"
        | "outer_row" | "pieces_held" => {
            let player = match typed.next() {
                Some(Typed::Player(p)) => p,
                _ => PlayerX::Mover,
            };
            match name {
                "store" => Typed::Number(IntX::Store(player)),
                "pieces_held" => Typed::Number(IntX::PiecesHeld(player)),
                "row_seeds" => Typed::Number(IntX::RowSeeds(player)),
                "holes_of" => Typed::Set(SetX::HolesOf(player)),
                "inner_row" => Typed::Set(SetX::Inner(player)),
                "outer_row" => Typed::Set(SetX::Outer(player)),
                "max_seeds" => Typed::Number(IntX::MaxSeeds(player)),
                "claim" => Typed::Hole(HoleX::Claim(Box::new(player))),
                _ => {
                    let n = match typed.next() {
                        Some(Typed::Number(n)) => n,
                        _ => IntX::Const(0),
                    };
                    Typed::Hole(HoleX::Of(Box::new(player), Box::new(n)))
                }
            }
        }
        _ => unreachable_function(name, span)?,
    })
}

/// Compiles a set of holes (after `in`, or a capture's `take_set`).
pub fn compile_set(node: &Node, scope: &Scope<'_>) -> Checked<SetX> {
    match compile(node, scope)? {
        Typed::Set(s) => Ok(s),
        other => Err(vec![mismatch(Type::Set, other.ty(), &node.span)]),
    }
}

/// An aggregate over a set, its arguments typed as its declaration says.
fn aggregate_of(name: &str, args: Vec<Typed>) -> Typed {
    let mut args = args.into_iter();
    let set = Box::new(match args.next() {
        Some(Typed::Set(set)) => set,
        _ => SetX::All,
    });
    match (name, args.next()) {
        ("count", Some(Typed::Bool(body))) => Typed::Number(IntX::Count(set, Box::new(body))),
        ("filter", Some(Typed::Bool(body))) => Typed::Set(SetX::Where(set, Box::new(body))),
        ("any" | "all", Some(Typed::Bool(body))) => {
            let quantifier = if name == "any" {
                Quantifier::Any
            } else {
                Quantifier::All
            };
            Typed::Bool(BoolX::Holds(quantifier, set, Box::new(body)))
        }
        (_, Some(Typed::Number(body))) => {
            let aggregate = match name {
                "max" => Aggregate::Max,
                "min" => Aggregate::Min,
                _ => Aggregate::Sum,
            };
            Typed::Number(IntX::Over(aggregate, set, Box::new(body)))
        }
        // The arguments' types were checked against the declaration.
        _ => Typed::Number(IntX::Const(0)),
    }
}

fn unreachable_function(name: &str, span: &Span) -> Checked<Typed> {
    Err(vec![
        Diagnostic::new(
            Code::ExprInternal,
            format!("internal error: function `{name}` is declared but not compiled"),
        )
        .at(span.clone()),
    ])
}

fn binary(op: BinaryOp, a: &Node, b: &Node, span: &Span, scope: &Scope<'_>) -> Checked<Typed> {
    match op {
        BinaryOp::And | BinaryOp::Or => {
            let (x, y) = both(compile_bool(a, scope), compile_bool(b, scope))?;
            Ok(Typed::Bool(match (op, x, y) {
                (BinaryOp::And, BoolX::Const(false), _)
                | (BinaryOp::And, _, BoolX::Const(false)) => BoolX::Const(false),
                (BinaryOp::And, BoolX::Const(true), y) => y,
                (BinaryOp::And, x, BoolX::Const(true)) => x,
                (BinaryOp::And, x, y) => BoolX::And(Box::new(x), Box::new(y)),
                (_, BoolX::Const(true), _) | (_, _, BoolX::Const(true)) => BoolX::Const(true),
                (_, BoolX::Const(false), y) => y,
                (_, x, BoolX::Const(false)) => x,
                (_, x, y) => BoolX::Or(Box::new(x), Box::new(y)),
            }))
        }
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
            let (x, y) = both(number(a, scope), number(b, scope))?;
            let arith = match op {
                BinaryOp::Add => ArithOp::Add,
                BinaryOp::Sub => ArithOp::Sub,
                BinaryOp::Mul => ArithOp::Mul,
                BinaryOp::Div => ArithOp::Div,
                _ => ArithOp::Rem,
            };
            Ok(Typed::Number(match (x, y) {
                (IntX::Const(x), IntX::Const(y)) => IntX::Const(crate::engine::arith(arith, x, y)),
                (x, y) => IntX::Arith(arith, Box::new(x), Box::new(y)),
            }))
        }
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
            let cmp = match op {
                BinaryOp::Eq => CmpOp::Eq,
                BinaryOp::Ne => CmpOp::Ne,
                BinaryOp::Lt => CmpOp::Lt,
                BinaryOp::Le => CmpOp::Le,
                BinaryOp::Gt => CmpOp::Gt,
                _ => CmpOp::Ge,
            };
            let (x, y) = both(compile(a, scope), compile(b, scope))?;
            let equality = matches!(cmp, CmpOp::Eq | CmpOp::Ne);
            let eq = cmp == CmpOp::Eq;
            let result = match (x, y) {
                (Typed::Number(IntX::Const(x)), Typed::Number(IntX::Const(y))) => {
                    BoolX::Const(crate::engine::compare(cmp, x, y))
                }
                (Typed::Number(x), Typed::Number(y)) => {
                    let hopeless = match (&x, &y) {
                        (x, IntX::Const(k)) => least(x).is_some_and(|low| never(cmp, low, *k)),
                        (IntX::Const(k), y) => {
                            least(y).is_some_and(|low| never(flipped(cmp), low, *k))
                        }
                        _ => false,
                    };
                    if hopeless {
                        scope.warnings.borrow_mut().push(
                            Diagnostic::new(
                                Code::NeverHolds,
                                format!(
                                    "`{}` can never hold: a count is never negative",
                                    crate::expr::show(&Node {
                                        kind: NodeKind::Binary(
                                            op,
                                            Box::new(a.clone()),
                                            Box::new(b.clone())
                                        ),
                                        span: span.clone(),
                                    })
                                ),
                            )
                            .at(span.clone())
                            .label("always false"),
                        );
                    }
                    BoolX::Int(cmp, x, y)
                }
                (Typed::Player(x), Typed::Player(y)) if equality => BoolX::Player(eq, x, y),
                (Typed::Dir(DirX::Const(x)), Typed::Dir(DirX::Const(y))) if equality => {
                    BoolX::Const((x == y) == eq)
                }
                (Typed::Dir(x), Typed::Dir(y)) if equality => BoolX::Dir(eq, x, y),
                (Typed::Hole(x), Typed::Hole(y)) if equality => BoolX::Hole(eq, x, y),
                (Typed::Bool(x), Typed::Bool(y)) if equality => {
                    // x == y  is  (x and y) or (not x and not y)
                    let same = BoolX::Or(
                        Box::new(BoolX::And(Box::new(x.clone()), Box::new(y.clone()))),
                        Box::new(BoolX::And(Box::new(not(x)), Box::new(not(y)))),
                    );
                    if eq { same } else { not(same) }
                }
                (Typed::Option(name), Typed::Text(text))
                | (Typed::Text(text), Typed::Option(name))
                    if equality =>
                {
                    option_test(&name, &text, eq, a, b, scope).map_err(|d| vec![d])?
                }
                (x, y) => {
                    let what = if equality { "compared" } else { "ordered" };
                    let d = Diagnostic::new(
                        Code::ExprIncomparable,
                        format!(
                            "{} and {} cannot be {what} with `{}`",
                            x.ty().word(),
                            y.ty().word(),
                            op.symbol()
                        ),
                    )
                    .at(span.clone());
                    let (shown_a, shown_b) = (crate::expr::show(a), crate::expr::show(b));
                    let sym = op.symbol();
                    let d = match (x.ty(), y.ty()) {
                        (Type::Hole, Type::Number) => {
                            d.hint(format!("did you mean `seeds({shown_a}) {sym} {shown_b}`?"))
                        }
                        (Type::Number, Type::Hole) => {
                            d.hint(format!("did you mean `{shown_a} {sym} seeds({shown_b})`?"))
                        }
                        (Type::Set, Type::Number) => d.hint(format!(
                            "a set is read through an aggregate: `sum({shown_a}, seeds(hole)) {sym} {shown_b}` compares its seeds"
                        )),
                        (Type::Number, Type::Set) => d.hint(format!(
                            "a set is read through an aggregate: `{shown_a} {sym} sum({shown_b}, seeds(hole))` compares its seeds"
                        )),
                        (Type::Option, Type::Number) => d.hint(format!(
                            "an option's values are strings: `{shown_a} {sym} \"{shown_b}\"`"
                        )),
                        (Type::Number, Type::Option) => d.hint(format!(
                            "an option's values are strings: `\"{shown_a}\" {sym} {shown_b}`"
                        )),
                        _ => d,
                    };
                    return Err(vec![d]);
                }
            };
            Ok(Typed::Bool(result))
        }
    }
}

fn option_test(
    name: &str,
    text: &str,
    eq: bool,
    a: &Node,
    b: &Node,
    scope: &Scope<'_>,
) -> Result<BoolX, Diagnostic> {
    let Some(option) = scope.options.get(name) else {
        return Err(
            Diagnostic::new(Code::ExprUnknownOption, format!("unknown option `{name}`"))
                .at(a.span.clone()),
        );
    };
    if !option.values.iter().any(|v| v == text) {
        let literal = if matches!(a.kind, NodeKind::Text(_)) {
            a
        } else {
            b
        };
        let d = Diagnostic::new(
            Code::ExprOptionValue,
            format!(
                "option `{name}` has no value \"{text}\"; its values are {}",
                quoted(option.values)
            ),
        )
        .at(literal.span.clone())
        .label("not a value of the option");
        let d = match &option.declared {
            Some(at) => d.also(at.clone(), "option declared here"),
            None => d,
        };
        return Err(
            match did_you_mean(text, option.values.iter().map(String::as_str)) {
                Some(s) => d.hint(format!("did you mean \"{s}\"?")),
                None => d,
            },
        );
    }
    Ok(BoolX::Const((option.value == text) == eq))
}

/// The comparison that holds when `cmp` does with its sides swapped.
fn flipped(cmp: CmpOp) -> CmpOp {
    match cmp {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// `"a", "b" and "c"`.
pub fn quoted(values: &[String]) -> String {
    let q: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "none".into(),
    }
}
