//! The rules language: untyped syntax trees with spans.
//!
//! `parse` turns the text of one expression into a [`Node`] tree; `check` gives it types and
//! compiles it. Spans are byte ranges into the expression text; the caller shifts them into
//! the ruleset file.
//!
//! Expression text is user input: no `unwrap`, `expect` or indexing that could panic.

mod parse;

use crate::diagnostic::{Code, Diagnostic};

pub use parse::parse;

/// A byte range in the expression text.
pub type Span = std::ops::Range<usize>;

/// The deepest nesting the parser accepts. Deeper text is refused before parsing, so that
/// a hostile expression cannot exhaust the stack.
pub const MAX_DEPTH: usize = 32;

/// The longest expression text accepted, in bytes.
pub const MAX_LEN: usize = 4096;

/// A syntax tree node.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

/// What a node is.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A whole number.
    Number(i64),
    /// A string literal (compared with option values).
    Text(String),
    /// `true` or `false`.
    Bool(bool),
    /// A name such as `mover`, `last` or `option.fours`.
    Name(String),
    /// A function call such as `seeds(next(last))`; the span of the name is kept.
    Call(String, Span, Vec<Node>),
    /// `not x`, `-x`.
    Unary(UnaryOp, Box<Node>),
    /// `a op b`.
    Binary(BinaryOp, Box<Node>, Box<Node>),
    /// `a in [x, y, ...]`.
    In(Box<Node>, Vec<Node>),
    /// `h in S`: a hole in a set of holes.
    InSet(Box<Node>, Box<Node>),
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Not,
    Neg,
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }
}

/// A syntax error in an expression.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub code: Code,
    pub message: String,
    pub span: Span,
    /// What the author probably meant (`==` for `=`, `and` for `&&`).
    pub hint: Option<String>,
}

impl SyntaxError {
    /// The error as a diagnostic of the clause it is in; its span counts from the start of
    /// the expression.
    pub fn diagnostic(&self, clause: &str) -> Diagnostic {
        let d = Diagnostic::new(
            self.code,
            format!("syntax error in \"{clause}\": {}", self.message),
        )
        .at(self.span.clone());
        match &self.hint {
            Some(h) => d.hint(h.clone()),
            None => d,
        }
    }
}

/// The text of an expression as the language writes it, from its tree: for suggestions
/// (`seeds(last) == 1`) and hovers.
pub fn show(n: &Node) -> String {
    match &n.kind {
        NodeKind::Number(v) => v.to_string(),
        NodeKind::Text(t) => format!("\"{t}\""),
        NodeKind::Bool(b) => b.to_string(),
        NodeKind::Name(s) => s.clone(),
        NodeKind::Call(f, _, a) => {
            format!("{f}({})", a.iter().map(show).collect::<Vec<_>>().join(", "))
        }
        NodeKind::Unary(UnaryOp::Not, x) => format!("not {}", show(x)),
        NodeKind::Unary(UnaryOp::Neg, x) => format!("-{}", show(x)),
        NodeKind::Binary(op, a, b) => format!("{} {} {}", show(a), op.symbol(), show(b)),
        NodeKind::In(x, l) => format!(
            "{} in [{}]",
            show(x),
            l.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        NodeKind::InSet(x, set) => format!("{} in {}", show(x), show(set)),
    }
}
