//! Expression text → syntax tree, with pest. `Pair` and `Rule` never leave this module.

use pest::Parser;
use pest::iterators::Pair;

use super::{BinaryOp, MAX_DEPTH, MAX_LEN, Node, NodeKind, Span, SyntaxError, UnaryOp};
use crate::diagnostic::Code;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/expr.pest"]
struct ExprParser;

/// Runs the parser, recording parse attempts for the error's message or not (`detail`). The
/// setting is global to the parser library and read when a parse starts, so setting it and
/// starting the parse happen under one lock: a parse on another thread cannot change it
/// between the two.
fn parse_with(
    text: &str,
    detail: bool,
) -> Result<pest::iterators::Pairs<'_, Rule>, pest::error::Error<Rule>> {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _parsing = DETAIL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    pest::set_error_detail(detail);
    ExprParser::parse(Rule::expression, text)
}

/// The most expressions the parse cache keeps (per thread); a full cache starts again empty.
const CACHED: usize = 4096;

thread_local! {
    /// Expressions already parsed on this thread, by their text. Loading a ruleset parses
    /// each expression more than once (the file's structure is checked before its clauses),
    /// and `sow check` loads a ruleset again for each other value of each option and each
    /// pair of them: most of a load's time was parsing the same texts again.
    static PARSED: std::cell::RefCell<std::collections::HashMap<String, Result<Node, SyntaxError>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Parses one expression (or finds it already parsed: see [`PARSED`]).
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    if let Some(parsed) = PARSED.with(|cache| cache.borrow().get(text).cloned()) {
        return parsed;
    }
    let parsed = parse_anew(text);
    PARSED.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHED {
            cache.clear();
        }
        cache.insert(text.to_owned(), parsed.clone());
    });
    parsed
}

/// Parses one expression from its text.
fn parse_anew(text: &str) -> Result<Node, SyntaxError> {
    if text.len() > MAX_LEN {
        return Err(SyntaxError {
            code: Code::ExprTooLong,
            message: format!(
                "this expression is {} bytes long; the limit is {MAX_LEN}",
                text.len()
            ),
            span: 0..0,
            hint: None,
        });
    }
    check_depth(text)?;
    // Most expressions parse: they are parsed without the record of parse attempts, which
    // costs most of the time of a parse. One that does not is parsed again with it, so that
    // the message can name the literal tokens (`)`, `,`, `]`) that could come at the fault.
    let mut pairs = match parse_with(text, false) {
        Ok(pairs) => pairs,
        Err(_) => {
            return Err(parse_with(text, true).err().map_or_else(
                || SyntaxError {
                    code: Code::ExprSyntax,
                    message: "this expression could not be parsed".into(),
                    span: 0..text.len(),
                    hint: None,
                },
                |e| from_pest(e, text),
            ));
        }
    };
    let top = pairs
        .next()
        .and_then(|p| p.into_inner().next())
        .ok_or_else(|| SyntaxError {
            code: Code::ExprSyntax,
            message: "empty expression".into(),
            span: 0..0,
            hint: None,
        })?;
    build(top)
}

/// Refuses nesting deeper than [`MAX_DEPTH`] before the recursive parser sees it. Prefix
/// operators count as nesting too, since each one is a level of the tree.
fn check_depth(text: &str) -> Result<(), SyntaxError> {
    let too_deep = |at: usize| SyntaxError {
        code: Code::ExprTooDeep,
        message: format!("expression nested deeper than {MAX_DEPTH} levels"),
        span: at..at + 1,
        hint: None,
    };
    let mut depth = 0usize;
    let mut prefixes = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '-' => prefixes += 1,
            'n' if text[i..].starts_with("not") => prefixes += 1,
            _ => continue,
        }
        if depth > MAX_DEPTH || prefixes > MAX_DEPTH * 4 {
            return Err(too_deep(i));
        }
    }
    Ok(())
}

fn from_pest(err: pest::error::Error<Rule>, text: &str) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let span = match err.location {
        InputLocation::Pos(p) => p..p,
        InputLocation::Span((a, b)) => a..b,
    };
    let message = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives
                .iter()
                .filter_map(|r| describe(*r))
                .flat_map(|w| w.split('|'))
                .collect();
            // Closers and separators are literal tokens of the grammar, not rules: the parse
            // attempts name them.
            if let Some(attempts) = err.parse_attempts() {
                for token in attempts.expected_tokens() {
                    match token.to_string().as_str() {
                        ")" => words.push("`)`"),
                        "]" => words.push("`]`"),
                        "," => words.push("`,`"),
                        _ => {}
                    }
                }
            }
            words.sort_unstable();
            words.dedup();
            match words.as_slice() {
                [] => "unexpected text".to_string(),
                [one] => format!("expected {one}"),
                _ => {
                    let (last, rest) = words.split_last().map_or(("", &[][..]), |(l, r)| (*l, r));
                    format!("expected {} or {}", rest.join(", "), last)
                }
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let hint = hint_at(text, span.start);
    let span = match span {
        // A place in the text is drawn as the character there.
        s if s.start == s.end => {
            let width = text
                .get(s.start..)
                .and_then(|t| t.chars().next())
                .map_or(0, char::len_utf8);
            s.start..s.start + width
        }
        s => s,
    };
    SyntaxError {
        code: Code::ExprSyntax,
        message,
        span,
        hint,
    }
}

/// What the author of a faulty expression probably meant, from the text at the fault:
/// operators of other languages.
fn hint_at(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    let hint = if rest.starts_with("&&") {
        "write `and` for `&&`"
    } else if rest.starts_with("||") {
        "write `or` for `||`"
    } else if rest.starts_with("!=") {
        return None;
    } else if rest.starts_with('!') {
        "write `not` for `!`"
    } else if rest.starts_with("=") && !rest.starts_with("==") {
        "did you mean `==`? `=` alone is not an operator of the language"
    } else if rest.starts_with('\'') {
        "strings are written in double quotes: `option.x == \"a\"`"
    } else if rest.starts_with('"') && !rest.get(1..).is_some_and(|r| r.contains('"')) {
        "this string has no closing `\"`"
    } else {
        return None;
    };
    Some(hint.to_string())
}

/// How a grammar rule is named in an error message; `None` for rules never worth naming.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the expression",
        Rule::disjunction
        | Rule::conjunction
        | Rule::negation
        | Rule::comparison
        | Rule::sum
        | Rule::product
        | Rule::unary
        | Rule::primary => "an expression",
        Rule::number => "a number",
        Rule::string => "a string",
        Rule::boolean => "true or false",
        Rule::call | Rule::ident | Rule::name => "a name",
        Rule::list => "a list such as [2, 3]",
        Rule::or_op => "`or`",
        Rule::and_op => "`and`",
        Rule::not_op => "`not`",
        Rule::in_op => "`in`",
        Rule::cmp_op => "a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`)",
        // Several words, split on `|`.
        Rule::add_op => "`+`|`-`",
        Rule::mul_op => "`*`|`/`|`%`",
        Rule::neg_op => "`-`",
        Rule::expression | Rule::WHITESPACE | Rule::keyword | Rule::text | Rule::ident_char => {
            return None;
        }
    })
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    s.start()..s.end()
}

fn build(pair: Pair<'_, Rule>) -> Result<Node, SyntaxError> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::disjunction | Rule::conjunction | Rule::sum | Rule::product => {
            let mut inner = pair.into_inner();
            let first = inner.next().ok_or_else(|| internal(&span))?;
            let mut left = build(first)?;
            while let Some(op) = inner.next() {
                let right = build(inner.next().ok_or_else(|| internal(&span))?)?;
                let op = binary_op(op.as_str());
                let span = left.span.start..right.span.end;
                left = Node {
                    kind: NodeKind::Binary(op, Box::new(left), Box::new(right)),
                    span,
                };
            }
            Ok(left)
        }
        Rule::negation | Rule::unary => {
            let mut prefixes = Vec::new();
            let mut operand = None;
            for p in pair.into_inner() {
                match p.as_rule() {
                    Rule::not_op => prefixes.push((UnaryOp::Not, span_of(&p).start)),
                    Rule::neg_op => prefixes.push((UnaryOp::Neg, span_of(&p).start)),
                    _ => operand = Some(build(p)?),
                }
            }
            let mut node = operand.ok_or_else(|| internal(&span))?;
            for (op, start) in prefixes.into_iter().rev() {
                let span = start..node.span.end;
                node = Node {
                    kind: NodeKind::Unary(op, Box::new(node)),
                    span,
                };
            }
            Ok(node)
        }
        Rule::comparison => {
            let mut inner = pair.into_inner();
            let left = build(inner.next().ok_or_else(|| internal(&span))?)?;
            let Some(op) = inner.next() else {
                return Ok(left);
            };
            let right = inner.next().ok_or_else(|| internal(&span))?;
            if op.as_rule() == Rule::in_op && right.as_rule() != Rule::list {
                let set = build(right)?;
                Ok(Node {
                    kind: NodeKind::InSet(Box::new(left), Box::new(set)),
                    span,
                })
            } else if op.as_rule() == Rule::in_op {
                let items = right.into_inner().map(build).collect::<Result<_, _>>()?;
                Ok(Node {
                    kind: NodeKind::In(Box::new(left), items),
                    span,
                })
            } else {
                let right = build(right)?;
                Ok(Node {
                    kind: NodeKind::Binary(binary_op(op.as_str()), Box::new(left), Box::new(right)),
                    span,
                })
            }
        }
        Rule::primary => build(pair.into_inner().next().ok_or_else(|| internal(&span))?),
        Rule::number => {
            let value = pair.as_str().parse::<i64>().map_err(|_| SyntaxError {
                code: Code::ExprNumberTooLarge,
                message: format!(
                    "the number {} is too large (the largest is {})",
                    pair.as_str(),
                    i64::MAX
                ),
                span: span.clone(),
                hint: None,
            })?;
            Ok(Node {
                kind: NodeKind::Number(value),
                span,
            })
        }
        Rule::boolean => Ok(Node {
            kind: NodeKind::Bool(pair.as_str() == "true"),
            span,
        }),
        Rule::string => {
            let text = pair.into_inner().next().map_or("", |t| t.as_str());
            Ok(Node {
                kind: NodeKind::Text(text.to_string()),
                span,
            })
        }
        Rule::name => Ok(Node {
            kind: NodeKind::Name(pair.as_str().to_string()),
            span,
        }),
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().ok_or_else(|| internal(&span))?;
            let name_span = span_of(&name);
            let args = inner.map(build).collect::<Result<_, _>>()?;
            Ok(Node {
                kind: NodeKind::Call(name.as_str().to_string(), name_span, args),
                span,
            })
        }
        _ => Err(internal(&span)),
    }
}

fn binary_op(text: &str) -> BinaryOp {
    match text {
        "or" => BinaryOp::Or,
        "and" => BinaryOp::And,
        "==" => BinaryOp::Eq,
        "!=" => BinaryOp::Ne,
        "<" => BinaryOp::Lt,
        "<=" => BinaryOp::Le,
        ">" => BinaryOp::Gt,
        ">=" => BinaryOp::Ge,
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        _ => BinaryOp::Rem,
    }
}

/// A tree the grammar cannot produce; reported rather than panicking.
fn internal(span: &Span) -> SyntaxError {
    SyntaxError {
        code: Code::ExprInternal,
        message: "internal error: unexpected syntax tree shape".into(),
        span: span.clone(),
        hint: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(n: &Node) -> String {
        match &n.kind {
            NodeKind::Number(v) => v.to_string(),
            NodeKind::Text(t) => format!("{t:?}"),
            NodeKind::Bool(b) => b.to_string(),
            NodeKind::Name(s) => s.clone(),
            NodeKind::Call(f, _, a) => {
                format!("{f}({})", a.iter().map(show).collect::<Vec<_>>().join(", "))
            }
            NodeKind::Unary(UnaryOp::Not, x) => format!("(not {})", show(x)),
            NodeKind::Unary(UnaryOp::Neg, x) => format!("(-{})", show(x)),
            NodeKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
            NodeKind::In(x, l) => format!(
                "({} in [{}])",
                show(x),
                l.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            NodeKind::InSet(x, set) => format!("({} in {})", show(x), show(set)),
        }
    }

    #[test]
    fn precedence_and_structure() {
        let cases = [
            ("a or b and c", "(a or (b and c))"),
            ("not a and b", "((not a) and b)"),
            ("1 + 2 * 3 == 7", "((1 + (2 * 3)) == 7)"),
            (
                "seeds(next(last)) in [2, 3]",
                "(seeds(next(last)) in [2, 3])",
            ),
            ("option.x == \"owner\"", "(option.x == \"owner\")"),
            ("-1 - -2", "((-1) - (-2))"),
            ("android and inert", "(android and inert)"),
        ];
        for (text, want) in cases {
            let node = parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(show(&node), want, "{text}");
        }
    }

    #[test]
    fn errors_point_at_the_fault() {
        let e = parse("seeds(last) ==").unwrap_err();
        assert_eq!(e.span, 14..14);
        let e = parse("seeds(last").unwrap_err();
        assert!(e.message.contains("`)`"), "{}", e.message);
        let e = parse("seeds(last) = 1").unwrap_err();
        assert!(e.hint.is_some_and(|h| h.contains("`==`")));
        assert!(e.message.contains("expression"), "{}", e.message);
        let e = parse("seeds(last)) > 1").unwrap_err();
        assert_eq!(e.span.start, 11);
        let e = parse("99999999999999999999").unwrap_err();
        assert!(e.message.contains("too large"));
        let deep = format!("{}1{}", "(".repeat(200), ")".repeat(200));
        assert!(parse(&deep).unwrap_err().message.contains("nested"));
    }
}
