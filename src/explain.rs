//! The rules of a ruleset told back in plain English, clause by clause, each beside the source
//! line it comes from, so an author can read back what they wrote (`sow explain`).
//!
//! The text is built from the parsed file (which keeps the spans and the expressions as
//! written) and from the checked rules (which know the option values in force). When the game's
//! documented rules are at hand ([`RulesDoc`], read from `docs/rules/NAME.md`), each section
//! quotes the clauses it cites. The result is a value: the command line prints it as text or
//! JSON.
//!
//! No `unwrap`, `expect` or indexing that could panic.

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::expr::{self, BinaryOp, Node, NodeKind, UnaryOp};
use crate::rules::{Player, Rules, title};
use crate::ruleset::{
    self, After, ClosedHoles, Destination, Direction, FirstSeed, Moment, NeutralSeeds, NextStarter,
    RelayFrom, Remaining, RowEnd, RulesetFile, Seeds, Setting, SkipOrigin, StoreSide, Stores,
    Verdict,
};

/// A ruleset told in English: what the file says about itself, then one section per part of
/// the rules.
pub struct Explanation {
    pub name: String,
    pub region: Option<String>,
    pub sources: Vec<String>,
    pub about: Option<String>,
    /// Where the documented rules quoted come from, when there are any.
    pub rules_file: Option<String>,
    pub sections: Vec<Section>,
}

/// Tells a checked ruleset back in English. `source` is the text it was loaded from; `rules`
/// are the rules checked from it, with the options in force; `doc` is the game's documented
/// rules and the name of their file, if there are any, whose clauses are quoted where cited.
pub fn explain(
    rules: &Rules,
    source: &str,
    doc: Option<(&str, &RulesDoc)>,
) -> Result<Explanation, String> {
    // The file loaded, so it parses; the parsed form keeps what the compiled rules lose: the
    // expressions as written and their places.
    let file: RulesetFile = toml::from_str(source).map_err(|e| e.to_string())?;
    let ex = Explainer {
        rules,
        source,
        in_aggregate: std::cell::RefCell::new(None),
        in_skip: std::cell::Cell::new(false),
    };
    let mut sections = ex.sections(&file);
    if let Some((_, doc)) = doc {
        for s in &mut sections {
            s.quotes = s
                .cites
                .as_deref()
                .map(|c| doc.quotes(c))
                .unwrap_or_default();
        }
    }
    Ok(Explanation {
        name: file.name,
        region: file.region,
        sources: file.sources,
        about: file.about,
        rules_file: doc.map(|(name, _)| name.to_string()),
        sections,
    })
}

/// A game's documented rules, as `docs/rules/NAME.md` writes them: the clauses of its `Rules`
/// table, its open points, and the rules it lists as not expressed.
#[derive(Debug, Default)]
pub struct RulesDoc {
    pub clauses: Vec<DocClause>,
}

/// One row of a rules file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocClause {
    pub id: String,
    pub kind: DocKind,
    /// The rule; for an open point, its question and the reading taken by default.
    pub text: String,
    /// For an open point: the option that carries it, if any.
    pub option: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    Rule,
    OpenPoint,
    /// A rule the ruleset does not express (the row gives the reason as its text).
    NotExpressed,
}

/// A documented clause quoted beside the section that cites it.
pub struct Quote {
    pub id: String,
    /// None when the rules file has no clause of that id.
    pub text: Option<String>,
}

/// Whether a piece of a `cites` is a clause id: capitals and digits, a dash, then a number or
/// `O` and a number (`RP-7`, `S3-O1`).
pub fn is_clause_id(s: &str) -> bool {
    let Some((prefix, number)) = s.split_once('-') else {
        return false;
    };
    let number = number.strip_prefix('O').unwrap_or(number);
    prefix.starts_with(|c: char| c.is_ascii_uppercase())
        && prefix
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
}

/// The pieces of a `cites` value: `"RP-4, RP-5"` is `["RP-4", "RP-5"]`.
pub fn cited(cites: &str) -> impl Iterator<Item = &str> {
    cites.split(',').map(str::trim).filter(|c| !c.is_empty())
}

impl RulesDoc {
    /// Reads the tables of a rules file: rows whose first cell is a clause id, under the
    /// headings `## Rules`, `## Open points` and `## Not expressed`.
    pub fn parse(text: &str) -> RulesDoc {
        let mut doc = RulesDoc::default();
        let mut kind = None;
        for line in text.lines() {
            if let Some(heading) = line.strip_prefix("## ") {
                kind = match heading.trim() {
                    "Rules" => Some(DocKind::Rule),
                    "Open points" => Some(DocKind::OpenPoint),
                    "Not expressed" => Some(DocKind::NotExpressed),
                    _ => None,
                };
                continue;
            }
            let (Some(kind), Some(row)) = (kind, line.trim().strip_prefix('|')) else {
                continue;
            };
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let (Some(id), Some(text)) = (cells.first(), cells.get(1)) else {
                continue;
            };
            if !is_clause_id(id) {
                continue;
            }
            let (text, option) = match kind {
                DocKind::OpenPoint => {
                    let default = cells.get(2).copied().unwrap_or("");
                    let option = cells
                        .get(4)
                        .map(|o| o.trim_matches('`'))
                        .filter(|o| !o.is_empty() && *o != "—");
                    (
                        format!("{text} Default: {default}."),
                        option.map(str::to_string),
                    )
                }
                DocKind::Rule | DocKind::NotExpressed => (text.to_string(), None),
            };
            doc.clauses.push(DocClause {
                id: id.to_string(),
                kind,
                text,
                option,
            });
        }
        doc
    }

    /// The rule or open point of this id.
    pub fn clause(&self, id: &str) -> Option<&DocClause> {
        self.clauses
            .iter()
            .find(|c| c.id == id && c.kind != DocKind::NotExpressed)
    }

    /// The clauses a `cites` value names, quoted; pieces that are not ids (free text) are
    /// left out.
    pub fn quotes(&self, cites: &str) -> Vec<Quote> {
        cited(cites)
            .filter(|c| is_clause_id(c))
            .map(|id| Quote {
                id: id.to_string(),
                text: self.clause(id).map(|c| c.text.clone()),
            })
            .collect()
    }
}

impl Explanation {
    /// The explanation as text; `file` names where the ruleset was read from.
    pub fn text(&self, file: &str) -> String {
        let mut out = format!("{}\n", self.name);
        if let Some(r) = &self.region {
            out.push_str(&format!("  region:  {r}\n"));
        }
        out.push_str(&format!("  file:    {file}\n"));
        if let Some(r) = &self.rules_file {
            out.push_str(&format!("  rules:   {r}\n"));
        }
        for s in &self.sources {
            out.push_str(&wrap(s, "  source:  ", "           "));
        }
        if let Some(about) = &self.about {
            out.push('\n');
            let joined = about.split_whitespace().collect::<Vec<_>>().join(" ");
            out.push_str(&wrap(&joined, "  ", "  "));
        }
        for s in &self.sections {
            out.push('\n');
            let mut title = s.title.clone();
            if let Some(c) = &s.cites {
                title.push_str(&format!(" [{c}]"));
            }
            if let Some(l) = s.line {
                title.push_str(&format!(", line {l}"));
            }
            out.push_str(&format!("{title}\n"));
            for q in &s.quotes {
                let text = q.text.as_deref().unwrap_or("(not in the rules file)");
                out.push_str(&wrap(&format!("> {}: {text}", q.id), "  ", "      "));
            }
            for part in &s.parts {
                match part {
                    Part::Say(sentence) => out.push_str(&wrap(sentence, "  ", "    ")),
                    Part::Note(n) => {
                        out.push_str(&wrap(&format!("{}: {}", n.role, n.english), "  ", "    "));
                        for (line, source) in &n.lines {
                            out.push_str(&format!("      {line:>3} | {source}\n"));
                        }
                    }
                }
            }
        }
        out
    }

    /// The sections as JSON.
    pub fn sections_json(&self) -> Vec<Value> {
        self.sections.iter().map(section_json).collect()
    }
}

/// An expression told in English, beside the lines of the file it is written on.
pub struct Note {
    pub role: &'static str,
    pub english: String,
    /// The lines it comes from (number, text), in order, each once.
    pub lines: Vec<(usize, String)>,
}

impl Note {
    /// Tells several expressions in one sentence: their lines are quoted once each.
    fn join(mut self, english: String, other: Note) -> Note {
        self.english = english;
        for line in other.lines {
            if !self.lines.contains(&line) {
                self.lines.push(line);
            }
        }
        self.lines.sort();
        self
    }
}

/// A sentence, or an expression beside its source.
pub enum Part {
    Say(String),
    Note(Note),
}

/// One part of the rules: the board, the sowing, a clause.
pub struct Section {
    pub kind: &'static str,
    pub title: String,
    pub cites: Option<String>,
    pub line: Option<usize>,
    /// The documented clauses it cites, quoted.
    pub quotes: Vec<Quote>,
    pub parts: Vec<Part>,
}

impl Section {
    fn new(
        kind: &'static str,
        title: impl Into<String>,
        cites: &Option<String>,
        line: Option<usize>,
    ) -> Section {
        Section {
            kind,
            title: title.into(),
            cites: cites.clone(),
            line,
            quotes: Vec::new(),
            parts: Vec::new(),
        }
    }

    fn say(&mut self, s: impl Into<String>) {
        self.parts.push(Part::Say(s.into()));
    }

    fn note(&mut self, n: Note) {
        self.parts.push(Part::Note(n));
    }
}

fn section_json(s: &Section) -> Value {
    json!({
        "kind": s.kind,
        "title": s.title,
        "cites": s.cites,
        "quotes": s.quotes.iter().map(|q| json!({ "id": q.id, "text": q.text })).collect::<Vec<_>>(),
        "line": s.line,
        "parts": s.parts.iter().map(|p| match p {
            Part::Say(text) => json!({ "text": text }),
            Part::Note(n) => json!({
                "role": n.role,
                "english": n.english,
                "line": n.lines.first().map(|(line, _)| line),
                "source": n.lines.iter().map(|(_, text)| text.as_str()).collect::<Vec<_>>().join("\n"),
            }),
        }).collect::<Vec<_>>(),
    })
}

struct Explainer<'a> {
    rules: &'a Rules,
    source: &'a str,
    /// In an aggregate's body, what `hole` is told as (each hole of the set in turn, rather
    /// than the hole a chain took).
    in_aggregate: std::cell::RefCell<Option<String>>,
    /// In a skip clause, `here` is the hole a seed would fall into, not one just sown.
    in_skip: std::cell::Cell<bool>,
}

/// How wide the prose is wrapped.
const WIDTH: usize = 96;

impl Explainer<'_> {
    /// The line of the file where the table `header` (e.g. `[[capture]]`) appears for the
    /// `nth` time (0-based); None when it is written inline.
    fn header_line(&self, header: &str, nth: usize) -> Option<usize> {
        self.source
            .lines()
            .enumerate()
            .filter(|(_, l)| {
                let l = l.trim();
                l.strip_prefix(header).is_some_and(|rest| {
                    rest.trim().is_empty() || rest.trim_start().starts_with('#')
                })
            })
            .nth(nth)
            .map(|(i, _)| i + 1)
    }

    fn note(&self, role: &'static str, e: &ruleset::Expr, ctx: Ctx) -> Note {
        // Every line the expression is written on (a TOML multi-line string spans several).
        let span = e.span();
        let first = crate::diagnostic::line_col(self.source, span.start).line;
        let last = crate::diagnostic::line_col(self.source, span.end.saturating_sub(1)).line;
        let lines = (first..=last.max(first))
            .map(|line| {
                let text = self
                    .source
                    .lines()
                    .nth(line.saturating_sub(1))
                    .unwrap_or("");
                (line, text.trim().to_string())
            })
            .collect();
        let english = match expr::parse(e.get_ref()) {
            Ok(node) => self.cond(&node, ctx),
            Err(_) => format!("`{}`", e.get_ref()),
        };
        Note {
            role,
            english,
            lines,
        }
    }

    fn hole_note(&self, role: &'static str, e: &ruleset::Expr, ctx: Ctx) -> Note {
        let mut n = self.note(role, e, ctx);
        if let Ok(node) = expr::parse(e.get_ref()) {
            n.english = self.value(&node, ctx);
        }
        n
    }

    /// A setting's value in force, and the option that decided it, if any.
    fn resolve<T: DeserializeOwned + Clone>(
        &self,
        s: &Setting<T>,
    ) -> (Option<T>, Option<(String, String)>) {
        match s {
            Setting::Fixed(v) => (Some(v.clone()), None),
            Setting::FromOption(r) => {
                let name = r.option.get_ref();
                let Some(o) = self.rules.options.iter().find(|o| &o.name == name) else {
                    return (None, None);
                };
                let value = if r.map.is_empty() {
                    use serde::de::IntoDeserializer;
                    let d: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
                        o.value.as_str().into_deserializer();
                    T::deserialize(d).ok()
                } else {
                    r.map.get(&o.value).cloned()
                };
                (value, Some((name.clone(), o.value.clone())))
            }
        }
    }

    /// A setting told in English, with the option that decides it.
    fn setting<T: DeserializeOwned + Clone>(
        &self,
        s: &Setting<T>,
        tell: impl Fn(&T) -> String,
    ) -> String {
        match self.resolve(s) {
            (Some(v), None) => tell(&v),
            (Some(v), Some((name, value))) => {
                format!("{} (option `{name}`, now \"{value}\")", tell(&v))
            }
            (None, _) => "(undecided)".to_string(),
        }
    }

    /// A yes-or-no setting in words: `yes` or `no` as it is set (or as its option is).
    fn either(&self, s: &Setting<bool>, yes: &str, no: &str) -> String {
        self.setting(s, |&on| if on { yes } else { no }.to_string())
    }

    fn sections(&self, f: &RulesetFile) -> Vec<Section> {
        let mut out = Vec::new();
        out.push(self.board(f));
        out.push(self.sowing(f));
        for (i, k) in f.sowing.skip.iter().enumerate() {
            let mut s = Section::new(
                "sowing",
                format!("Skip: \"{}\"", k.name),
                &k.cites,
                self.header_line("[[sowing.skip]]", i),
            );
            s.say("Before each seed falls, this clause is read at the hole it would fall into (`here`): when it holds, the seed passes over that hole to the next. When every hole of the circuit passes the seeds in hand over, they go back into the hole the lap was lifted from and the lap ends there.");
            self.in_skip.set(true);
            s.note(self.note("the seed passes over the hole when", &k.when, Ctx::Move));
            self.in_skip.set(false);
            out.push(s);
        }
        for (i, r) in f.sowing.redirect.iter().enumerate() {
            let mut s = Section::new(
                "sowing",
                format!("Redirect: \"{}\"", r.name),
                &r.cites,
                self.header_line("[[sowing.redirect]]", i),
            );
            s.say(match (&r.hole, &r.player) {
                (Some(_), _) => "Before each seed falls (after the skip clauses), this clause is read at the hole it would fall into (`here`): when it holds, the seed goes into the hole named below instead. When it is the lap's last seed, the lap ends in that hole.",
                (None, Some(_)) => "Before each seed falls (after the skip clauses), this clause is read at the hole it would fall into (`here`): when it holds, the seed goes to the player named below instead, joining what they hold, and the hole stays as it was (where the expression names nobody, the seed falls into the hole as usual). When it is the lap's last seed, the lap ends at that hole.",
                (None, None) => "Before each seed falls (after the skip clauses), this clause is read at the hole it would fall into (`here`): when it holds, the seed goes out of play instead. When it is the lap's last seed, the lap ends at that hole.",
            });
            self.in_skip.set(true);
            s.note(self.note("the seed goes elsewhere when", &r.when, Ctx::Move));
            if let Some(h) = &r.hole {
                s.note(self.note("the seed goes into", h, Ctx::Move));
            }
            if let Some(p) = &r.player {
                s.note(self.hole_note("the seed goes to", p, Ctx::Move));
            }
            self.in_skip.set(false);
            out.push(s);
        }
        if let Some(r) = &f.sowing.relay {
            let mut s = Section::new(
                "relay",
                "Relay",
                &r.cites,
                self.header_line("[sowing.relay]", 0),
            );
            let from = match (&r.hole, r.from.unwrap_or(RelayFrom::Landing)) {
                (Some(_), _) => "the hole named below",
                (None, RelayFrom::Landing) => "the hole the last seed fell into",
                (None, RelayFrom::Next) => "the hole after the one the last seed fell into",
            };
            s.say(format!(
                "When a lap ends, the seeds of {from} are lifted and sown as the next lap, as long as the condition below holds; otherwise the move ends."
            ));
            if let Some(h) = &r.hole {
                s.note(self.note("the hole lifted", h, Ctx::Move));
            }
            match (&r.when, &r.hole) {
                (Some(e), _) => s.note(self.note("relay when", e, Ctx::Move)),
                (None, Some(_)) => s.say("The condition is the default: that hole is not empty."),
                (None, None) => s.say(match r.from.unwrap_or(RelayFrom::Landing) {
                    RelayFrom::Landing => "The condition is the default: the landing hole held seeds before the last one fell (it now holds more than 1).",
                    RelayFrom::Next => "The condition is the default: the hole after the landing hole is not empty.",
                }),
            }
            if self.rules.relay.as_ref().is_some_and(|r| r.reverse) {
                s.say("Each relay turns the direction round: the next lap is sown the other way.");
            }
            if let Some(e) = &r.lift {
                s.say("A relay lifts part of the hole (`hole`), at least one seed and at most all of them:");
                // `hole` here is the hole the relay lifts.
                let outer = self.in_aggregate.replace(Some("the hole lifted".into()));
                s.note(self.note("seeds lifted", e, Ctx::Move));
                self.in_aggregate.replace(outer);
            }
            let stop = "the move stops and the mover answers `continue` (the relay is made) or `stop` (the move ends where the lap ended, its move-end clauses tried)";
            match r.optional.as_ref().map(|t| t.get_ref()) {
                None | Some(ruleset::Toggle::Setting(Setting::Fixed(false))) => {}
                Some(ruleset::Toggle::When(_)) => {
                    s.say(format!("The mover may stop instead of relaying where the condition below holds: there {stop}; elsewhere the relay is made."));
                    if let Some(e) = r.optional_condition() {
                        s.note(self.note("the relay is on offer when", &e, Ctx::Move));
                    }
                }
                Some(ruleset::Toggle::Setting(o)) => {
                    let may = self.either(
                        o,
                        &format!("yes: where the relay would lift a hole, {stop}"),
                        "no: every relay is made",
                    );
                    s.say(format!(
                        "Whether the mover may stop instead of relaying: {may}."
                    ));
                }
            }
            if f.end.endless_move.is_none() {
                s.say("A move whose laps never end is not given an outcome under [end]: the default applies (each player takes their own row, most seeds wins).");
            }
            out.push(s);
        }
        let mut start = Section::new(
            "start",
            "Who starts",
            &f.start.cites,
            self.header_line("[start]", 0),
        );
        start.say(format!(
            "{} makes the first move{}.",
            match &f.start.first {
                Some(first) => self.setting(first.get_ref(), |p| title(p)),
                None => f
                    .turns
                    .players
                    .as_ref()
                    .and_then(|l| l.get_ref().first().map(|p| title(p.get_ref())))
                    .unwrap_or_else(|| "South".to_string()),
            },
            if f.rounds.is_some() {
                " of the match"
            } else {
                ""
            }
        ));
        out.push(start);

        let mut legal = Section::new("legal", "Legal moves", &None, None);
        legal.say(if self.rules.sow_from_any {
            "A player sows from any hole of the board, whoever owns it, that is open and not empty."
        } else {
            "A player sows from one of their own holes that is open and not empty."
        });
        if f.legal.is_empty() {
            legal.say("No further clause restricts the choice.");
        } else {
            legal.say("Each clause below restricts the choice further when it applies.");
        }
        out.push(legal);
        for (i, l) in f.legal.iter().enumerate() {
            let mut s = Section::new(
                "legal",
                format!("Legal move: \"{}\"", l.name),
                &l.cites,
                self.header_line("[[legal]]", i),
            );
            match &l.when {
                Some(e) => s.note(self.note("applies when", e, Ctx::Legal)),
                None => s.say("Applies to every move."),
            }
            if let Some(e) = &l.require {
                s.note(self.note("the move is legal only if", e, Ctx::Legal));
            }
            if let Some(e) = &l.require_after {
                s.note(self.note("once made, the move is legal only if", e, Ctx::Move));
            }
            if l.prefer.is_some() || l.prefer_after.is_some() {
                s.say("A preference over all the legal moves: when at least one of them has the property below, only the moves that have it are legal; when none has it, this clause leaves the moves as they are.");
            }
            if let Some(e) = &l.prefer {
                s.note(self.note("the property (before the move)", e, Ctx::Legal));
            }
            if let Some(e) = &l.prefer_after {
                s.note(self.note(
                    "the property (once the move is made, on a copy)",
                    e,
                    Ctx::Move,
                ));
            }
            out.push(s);
        }

        for (i, c) in f.capture.iter().enumerate() {
            let mut s = Section::new(
                "capture",
                format!("Capture: \"{}\"", c.name),
                &c.cites,
                self.header_line("[[capture]]", i),
            );
            s.say(format!("Tried {}.", moment(c.at)));
            let ctx = Ctx::of(c.at);
            s.note(self.note("it fires when", &c.when, ctx));
            if let Some(e) = &c.choose {
                s.note(self.hole_note("the mover then chooses one hole of", e, ctx));
                s.say("That hole is `chosen` below. Where there is more than one to choose from (or the capture is optional), the move stops and the mover's next ply names it, `choose:` and its label; where there is one it is chosen at once; where there is none the clause is not made.");
            }
            // The holes taken are one list, told in one sentence however it is laid out.
            let takes = c
                .take
                .iter()
                .map(|t| self.hole_note("it takes the seeds of", t, ctx));
            let takes = takes.reduce(|all, n| {
                let english = format!("{} and {}", all.english, n.english);
                all.join(english, n)
            });
            if let Some(n) = takes {
                s.note(n);
            }
            if let Some(e) = &c.take_seeds {
                s.note(self.hole_note(
                    "from each hole taken it takes at most (the rest stays there; `hole` is the hole taken, read before it is)",
                    e,
                    ctx,
                ));
            }
            if let Some(e) = &c.take_set {
                let lead = if c.take.is_empty() {
                    "it takes the seeds of every one of"
                } else {
                    "it takes as well the seeds of every one of"
                };
                s.note(self.hole_note(lead, e, ctx));
                s.say("That set is read before anything is taken.");
            }
            if let Some(ch) = &c.chain {
                // The test is made at the hole just taken, before each step.
                let test = self.note("then it goes on", &ch.while_, ctx);
                let step = self.hole_note("", &ch.step, ctx);
                let english = format!(
                    "while {}, from the hole just taken to {}, taking that too (never a hole twice)",
                    test.english, step.english
                );
                s.note(test.join(english, step));
                for also in &ch.also {
                    s.note(self.hole_note(
                        "with each hole the chain steps to (`hole`), it takes as well",
                        also,
                        ctx,
                    ));
                }
            }
            let resown = c.at == Moment::LapEnd && c.then == After::Sow;
            if let Some(e) = &c.into {
                s.note(self.hole_note(
                    "the seeds taken are not banked but put into (read before anything is taken; where it names no open hole, nothing is taken)",
                    e,
                    ctx,
                ));
            } else if let Some(p) = &c.player {
                s.note(self.hole_note(
                    "the seeds of each hole taken go to (read before they are lifted, `hole` naming the hole; where it names nobody, the hole is left as it is)",
                    p,
                    ctx,
                ));
            } else if !resown && let Some(to) = &c.to {
                s.say(format!(
                    "The seeds go {}.",
                    self.setting(to, |d| destination(*d).to_string())
                ));
            }
            if c.keep.is_some() {
                s.say("The seed or piece just dropped stays where it fell; the rest of the hole is taken.");
            }
            if self.rules.pieces.is_some() {
                s.say(format!(
                    "A {} in a hole taken goes with its seeds, into the taker's hand.",
                    crate::render::piece_name(self.rules)
                ));
            }
            if let Some(e) = &c.cancel_if {
                s.note(self.note("the whole capture is undone if afterwards", e, ctx));
            }
            if c.claim {
                s.say("The first hole it takes becomes the mover's claimed hole, unless the mover has claimed one already (one claim each): from then on every seed sown into it goes to the mover, so it stays empty and nobody can play it.");
            }
            if resown && c.sow_after.is_some() {
                s.say("Then the seeds taken are not banked: the mover sows them as the next lap, starting in the hole after the one named below, and that lap ends like any other.");
            } else if c.at == Moment::LapEnd {
                s.say(format!("Then {}.", after(c.then)));
            }
            if resown {
                if let Some(e) = &c.sow_after {
                    s.note(self.hole_note("they are sown from the hole after", e, ctx));
                }
                if let Some(e) = &c.lift_also {
                    s.note(self.hole_note(
                        "seeds also lifted from the hole the lap ended in and sown with them (at most what it holds)",
                        e,
                        ctx,
                    ));
                }
                if let Some(e) = &c.sow_direction {
                    s.note(self.hole_note(
                        "the direction they are sown in, which later relays of the move go on in",
                        e,
                        ctx,
                    ));
                }
            }
            if !matches!(c.optional, Setting::Fixed(false)) {
                let yes = if c.choose.is_some() {
                    "yes: where there is a hole to choose, the move stops and the mover answers `choose:` and a hole (the capture is made with it and the move goes on as this clause says) or `leave` (the move goes on as if the condition had not held)"
                } else {
                    "yes: where it would take seeds, the move stops and the mover answers `take` (the capture is made and the move goes on as this clause says) or `leave` (the move goes on as if the condition had not held)"
                };
                let may = self.either(&c.optional, yes, "no: every capture on offer is made");
                s.say(format!("Whether the mover may decline the capture: {may}."));
            }
            out.push(s);
        }

        for (i, x) in f.extra_turn.iter().enumerate() {
            let mut s = Section::new(
                "extra_turn",
                format!("Extra turn: \"{}\"", x.name),
                &x.cites,
                self.header_line("[[extra_turn]]", i),
            );
            s.say("When the move has ended, the mover sows again if the condition holds.");
            s.note(self.note("the mover sows again when", &x.when, Ctx::Move));
            if !matches!(x.optional, Setting::Fixed(false)) {
                let may = self.either(
                    &x.optional,
                    "yes: `pass` declines it and ends the turn",
                    "no: they must move again",
                );
                s.say(format!(
                    "Whether the mover may decline the extra turn: {may}."
                ));
            }
            out.push(s);
        }

        if let Some(e) = &f.entry {
            let mut s = Section::new(
                "entry",
                format!("Entry: \"{}\"", e.name.as_deref().unwrap_or("entry")),
                &e.cites,
                self.header_line("[entry]", 0),
            );
            let how_many = self.either(
                &e.choose,
                "as many as the mover chooses, from one to the number below",
                "the number below",
            );
            s.say(format!(
                "Instead of sowing a hole, the mover may enter seeds they hold: {how_many}, never more than they hold. The first falls into the hole named below, the others one a hole after it along the mover's circuit in the move's direction, and the lap ends as any lap does. The move is written `+N`, N the seeds entered. Legality clauses judge it too, with `origin` the hole named below and `entered` the seeds entered."
            ));
            if let Some(w) = &e.when {
                s.note(self.note("the mover may enter seeds when", w, Ctx::Legal));
            }
            let chosen = matches!(self.resolve(&e.choose), (Some(true), _));
            match (&e.seeds, chosen) {
                (Some(n), false) => s.note(self.hole_note("the seeds entered", n, Ctx::Legal)),
                (Some(n), true) => {
                    s.note(self.hole_note("the most that may be entered", n, Ctx::Legal))
                }
                (None, false) => s.say("The seeds entered: all the mover holds."),
                (None, true) => s.say("The most that may be entered: all the mover holds."),
            }
            s.note(self.hole_note("the first seed falls into", &e.start, Ctx::Legal));
            out.push(s);
        }

        if let (Some(kind), Some((name, decl))) = (&self.rules.pieces, f.pieces.iter().next()) {
            let mut s = Section::new(
                "pieces",
                format!("Pieces: \"{}\"", kind.name),
                &decl.cites,
                self.header_line(&format!("[pieces.{}]", name.get_ref()), 0),
            );
            if let Some(about) = &decl.about {
                s.say(format!("The {}: {about}.", kind.name));
            }
            s.say(format!("Each player starts holding one {name}, off the board. On the board a {name} counts as a seed wherever seeds are counted: an empty hole holds neither, a lift takes it with the seeds, a capture takes it with the seeds of its hole and gives it to the capturer's hand, off the board. Held off the board it is no seed of its holder's. A position shows it in its hole, `5+{name}`.", name = kind.name));
            s.say(match kind.sown {
                ruleset::PieceOrder::Stack => format!("A hole is sown as a stack: the last piece or seed to arrive is sown first, so a {} falls after the seeds and pieces dropped on it since it arrived.", kind.name),
                ruleset::PieceOrder::Last => format!("A lifted hole's {} falls after all its seeds.", kind.name),
                ruleset::PieceOrder::First => format!("A lifted hole's {} falls before all its seeds.", kind.name),
            });
            s.say(match kind.round_end {
                ruleset::PieceRoundEnd::Remainder => format!("At a round's end a {} on the board goes with the seeds of its hole; at the refill, one still on the board goes to its hole's owner.", kind.name),
                ruleset::PieceRoundEnd::Holder => format!("At a round's end a {} on the board goes back to the player who put it down.", kind.name),
            });
            out.push(s);
        }

        if let Some(a) = &f.arrange {
            let mut s = Section::new(
                "arrange",
                format!(
                    "Arrangement: \"{}\"",
                    a.name.as_deref().unwrap_or("arrangement")
                ),
                &a.cites,
                self.header_line("[arrange]", 0),
            );
            let (at, first, refill_after) = match &self.rules.arrange {
                Some(r) => (r.at, r.first, r.refill_after),
                None => Default::default(),
            };
            let refill_none =
                at.at_rounds() && self.rules.rounds.as_ref().is_some_and(|r| r.laid_out());
            // Whether the round's arrangement comes before its refill, or on a refilled board.
            let before_refill = refill_none || refill_after;
            let when = match (at, before_refill) {
                (ruleset::ArrangeAt::Start, _) => "Before play",
                (ruleset::ArrangeAt::Rounds, true) => "At the start of every round after the first",
                (ruleset::ArrangeAt::Rounds, false) => {
                    "At the start of every round after the first, once the board has been refilled"
                }
                (ruleset::ArrangeAt::Always, true) => {
                    "Before play, and again at the start of every later round"
                }
                (ruleset::ArrangeAt::Always, false) => {
                    "Before play, and again at the start of every later round once the board has been refilled"
                }
            };
            let mover = if self.rules.rounds.is_some() {
                "the round's first mover"
            } else {
                "the first mover"
            };
            let order = match first {
                ruleset::ArrangeFirst::Starter => format!("in turn order from {mover}"),
                ruleset::ArrangeFirst::Poorer => "in turn order from the player holding the fewest seeds (the first in turn order on equal totals)".to_string(),
                ruleset::ArrangeFirst::Richer => "in turn order from the player holding the most seeds (the later in turn order on equal totals)".to_string(),
            };
            let pieces_only = a.put.is_none() && a.pick.is_none();
            if let (true, Some(kind)) = (pieces_only, &self.rules.pieces) {
                s.say(format!("{when}, the players put down the {name}s they hold one after the other, {order}. Each ply of the arrangement puts one: `s3+{name}` puts a {name} the mover holds into s3. A player's arrangement ends when they pass, where the rules below let them, or when they can put nothing more down; once every player's has ended, {mover} makes the first move. No ending is read, and no position is remembered for the cycle rule, until play has begun.", name = kind.name));
            } else {
                s.say(format!("{when}, the players arrange their seeds one after the other, {order}. Each ply of an arrangement moves one seed: `s3+` puts one the mover holds into s3, `s3-` picks one up from s3 into their hand. A player's arrangement ends when they pass, where the rules below let them, or when they can do nothing more; once every player's has ended, {mover} makes the first move. No ending is read, and no position is remembered for the cycle rule, until play has begun."));
            }
            if refill_none {
                s.say("Between rounds nothing is refilled by count: every hole is emptied into its owner's hand, and the arrangement lays the seeds out.");
            } else if refill_after && at.at_rounds() {
                s.say("Between rounds every hole is first emptied into its owner's hand; the refill waits until every player has arranged, and then fills the holes the arrangement left empty.");
            }
            match &a.put {
                Some(e) => s.note(self.note(
                    "a seed the mover holds may be put into a hole when, this hole being the one tried",
                    e,
                    Ctx::Place,
                )),
                None => s.say("No seed is put: the arrangement puts pieces only."),
            }
            if let (Some(e), Some(kind)) = (&a.place, &self.rules.pieces) {
                s.note(self.note(
                    "a piece the mover holds may be put into a hole (written s3+ and the piece's name) when, this hole being the one tried",
                    e,
                    Ctx::Place,
                ));
                s.say(format!("A player who holds a {} cannot end their arrangement while they may still put it down.", kind.name));
            }
            match &a.pick {
                Some(e) => s.note(self.note("a seed may be picked up from a hole holding seeds when, this hole being the one tried", e, Ctx::Place)),
                None if pieces_only => {}
                None => s.say("No seed is picked up: the players lay out what they hold."),
            }
            match &a.done {
                Some(e) => s.note(self.note("the mover may end their arrangement with `pass` when", e, Ctx::Legal)),
                None if pieces_only => s.say("The mover never passes: their arrangement ends when they can put nothing more down."),
                None => s.say("The mover never passes: their arrangement ends when they can neither put nor pick up a seed."),
            }
            out.push(s);
        }

        if !f.vars.is_empty() {
            let mut s = Section::new("vars", "What the rules keep", &None, None);
            for v in &self.rules.vars {
                let what = match v.kind {
                    ruleset::VarKind::Number => format!("a count starting at {}", v.initial),
                    ruleset::VarKind::Flag => format!(
                        "a flag, at first {}",
                        if v.initial != 0 { "true" } else { "false" }
                    ),
                    ruleset::VarKind::Direction => "a direction, none at first".to_string(),
                    ruleset::VarKind::Holes => "a set of holes, empty at first".to_string(),
                };
                let whose = if v.per_player {
                    ", one for each player"
                } else {
                    ""
                };
                let reset = match v.scope {
                    ruleset::VarScope::Lap => {
                        "set back when every lap is over, after its lap-end clauses"
                    }
                    ruleset::VarScope::Move => {
                        "set back when every move is over, so that each starts afresh"
                    }
                    ruleset::VarScope::Turn => "set back at the start of every turn",
                    ruleset::VarScope::Round => "set back at the start of every round",
                    ruleset::VarScope::Game if f.rounds.is_some() => {
                        "kept for the whole match, from round to round"
                    }
                    ruleset::VarScope::Game => "kept for the whole game",
                };
                let about = v
                    .about
                    .as_deref()
                    .map(|a| format!(": {a}"))
                    .unwrap_or_default();
                s.say(format!("`{}` is {what}{whose}, {reset}{about}.", v.name));
            }
            out.push(s);
        }
        for (i, e) in f.effect.iter().enumerate() {
            let mut s = Section::new(
                "effect",
                format!("Effect: \"{}\"", e.name),
                &e.cites,
                self.header_line("[[effect]]", i),
            );
            s.say(match e.at {
                Moment::Drop => "Tried after every seed dropped, after the captures of the drop.",
                Moment::LapEnd => {
                    "Tried at the end of every lap, after its captures and once the relay is decided, before the next lap lifts its hole."
                }
                Moment::MoveEnd => "Tried when the move has ended, after its captures.",
                Moment::Put => "Tried after each seed put in the arrangement before play, after its captures.",
                Moment::Pick => "Tried after each seed picked up in the arrangement before play, after its captures.",
                Moment::RoundEnd => "Tried when a round of the match has ended and been scored, before the match's end is decided: once for each player still in the match, in turn order, the mover being that player.",
                Moment::RoundStart => "Tried at the start of every round (the game's first included), once its board is laid out and before its first move: once for each player still in play, in turn order, the mover being that player.",
                // Refused when the rules load.
                Moment::PlayEnd => "Never tried: effects are not tried at play's end.",
            });
            let ctx = Ctx::of(e.at);
            if let Some(w) = &e.when {
                s.note(self.note("it applies when", w, ctx));
            }
            for (name, value) in &e.set {
                let mut n = self.note("", value, ctx);
                n.role = "the new value is";
                // A flag set to a constant reads as that value, not as "always" or "never".
                if let literal @ ("true" | "false") = value.get_ref().trim() {
                    n.english = literal.to_string();
                }
                s.say(format!(
                    "It sets `{}`{}:",
                    name.get_ref(),
                    if self
                        .rules
                        .vars
                        .iter()
                        .any(|v| &v.name == name.get_ref() && v.per_player)
                    {
                        " (the mover's)"
                    } else {
                        ""
                    }
                ));
                s.note(n);
            }
            for (verb, table) in [("puts into", &e.mark), ("takes out of", &e.unmark)] {
                for (name, value) in table {
                    let mut n = self.note("", value, ctx);
                    n.role = "the hole is";
                    let whose = if (self.rules.vars.iter())
                        .any(|v| &v.name == name.get_ref() && v.per_player)
                    {
                        " (the mover's)"
                    } else {
                        ""
                    };
                    s.say(format!(
                        "It {verb} the set `{}`{whose} a hole:",
                        name.get_ref()
                    ));
                    s.note(n);
                }
            }
            out.push(s);
        }
        // Told whenever passing or the pie rule is on, or an option may turn it on.
        let told =
            |on: bool, setting: &Setting<bool>| on || matches!(setting, Setting::FromOption(_));
        let pass = told(self.rules.pass, &f.turns.pass);
        let swap = told(self.rules.swap.is_some(), &f.turns.swap);
        if pass || swap {
            let mut s = Section::new(
                "turns",
                "Turns",
                &f.turns.cites,
                self.header_line("[turns]", 0),
            );
            if pass {
                s.say(self.setting(&f.turns.pass, |&pass| if pass {
                    "A player who cannot sow passes while another player can move; the game (or round) ends by no move only when no player can move".to_string()
                } else {
                    "A player who cannot sow does not pass: the game (or round) ends by no move".to_string()
                }) + ".");
            }
            if swap {
                s.say(self.setting(&f.turns.swap, |&swap| if swap {
                    "The pie rule: in each round, at the first turn of the player who did not make its first ply, that player may `swap` instead of moving. The board turns round, each player's holes onto the other's (on two rows `s3` onto `n3`), store onto store; what each holds, seeds removed, claims and the sides' variables are exchanged, those lasting a match staying with the players), and the first player moves again, from the side they did not choose".to_string()
                } else {
                    "There is no pie rule: nobody may exchange sides".to_string()
                }) + ".");
            }
            out.push(s);
        }
        if let (Some(r), Some(race)) = (&f.race, &self.rules.race) {
            use crate::ruleset::{RaceEnds, RaceNext, RaceUnfinished};
            let mut s = Section::new("race", "The race", &r.cites, self.header_line("[race]", 0));
            let over = match race.ends {
                RaceEnds::First => match race.unfinished {
                    RaceUnfinished::Sow => {
                        "as soon as one sowing has ended (at the end of that tick): the others sow the seeds in their hands on, one a hole, reading no clause"
                    }
                    RaceUnfinished::Back => {
                        "as soon as one sowing has ended (at the end of that tick): the others put the seeds in their hands back into the hole their lap was lifted from"
                    }
                },
                RaceEnds::All => "once every sowing has ended",
            };
            let next = match race.next {
                RaceNext::First => {
                    "the player whose sowing ended first moves (the earlier in turn order on the same tick)"
                }
                RaceNext::After => "the player after the one whose sowing ended first moves",
                RaceNext::Starter => "the round's starter moves",
            };
            let from = if race.from.is_chosen() {
                format!(
                    "Before it, each player in turn order from the round's starter chooses the hole they race from, one of `{}` holding seeds that no earlier player chose, written `race:s3` (a player with no such hole does not race). Then the race, written `race`: every player sows at once from the hole they chose",
                    r.from.get_ref()
                )
            } else {
                format!(
                    "Each round's first ply is a race, written `race`: every player sows at once from `{}` (a player whose hole is closed or empty does not race)",
                    r.from.get_ref()
                )
            };
            s.say(format!(
                "{from}, one seed each a tick in turn order from the round's starter, each sowing relaying, capturing and ending by the rules as that player's move would. The race is over {over}; then {next}."
            ));
            out.push(s);
        }

        out.extend(self.endings(f));
        if let Some(r) = &f.rounds {
            let mut s = Section::new(
                "rounds",
                "A match of rounds",
                &r.cites,
                self.header_line("[rounds]", 0),
            );
            let refill = self.rules.rounds.as_ref().map_or(0, |r| r.refill);
            let (partial, poorest, open, least, win) =
                self.rules
                    .rounds
                    .as_ref()
                    .map_or((false, false, false, 1, false), |r| {
                        (
                            r.partial,
                            r.poorest,
                            r.unfilled_open,
                            r.least_in_last,
                            r.win_holes,
                        )
                    });
            let unfilled = match (win, open) {
                (true, true) => {
                    "holes nobody fills are nobody's for the round: on the circuit, sown into, never played from"
                }
                (true, false) => {
                    "holes nobody fills stay their first owner's, closed for the round"
                }
                (false, true) => {
                    "holes left unfilled stay on the circuit, empty, sown into and playable once they hold seeds"
                }
                (false, false) => "holes they cannot fill stay closed for the round",
            };
            let last = match (partial, least) {
                (false, _) => String::new(),
                (true, 0 | 1) => ", the last hole taking what is left when it is fewer".to_string(),
                (true, k) => format!(
                    ", the last hole taking what is left when it is fewer but at least {k} (fewer are kept)"
                ),
            };
            let restart = self.rules.rounds.as_ref().is_some_and(|r| r.restart);
            let refill_from = r
                .refill_from
                .clone()
                .unwrap_or(ruleset::Setting::Fixed(RowEnd::Left));
            let laid_out = self.rules.rounds.as_ref().is_some_and(|r| r.laid_out());
            if restart {
                s.say("Every round starts again from the start position, the holes as the board lays them out and each player holding what they held at the start: a match of separate games, the seeds won in one not carried into the next.");
            } else if laid_out {
                s.say("When a round ends, each player empties their holes into what they hold; nothing is refilled by count: the players lay out their seeds in the arrangement that starts every later round.");
            } else if win {
                s.say(format!(
                "When a round ends, each player empties the holes they held into what they hold and fills their own holes again (those the board gives them at the start, whoever held them since), {refill} seeds a hole{last}, {}. Then the players with seeds left, one hole each in turn order, fill the holes nobody filled, going on round the board from their own holes in the same direction, and own the holes they fill for the round; {unfilled}.",
                self.setting(&refill_from, |e| match e {
                    RowEnd::Left => "from the first of their own holes".to_string(),
                    RowEnd::Right => "from the last of their own holes (the right end of a row)".to_string(),
                    RowEnd::OutsideIn => "from both ends".to_string(),
                })
            ));
            } else {
                let again = if self
                    .rules
                    .arrange
                    .as_ref()
                    .is_some_and(|a| a.at.at_rounds() && a.refill_after)
                {
                    "and, once the players have arranged, fills the holes the arrangement left empty"
                } else {
                    "and fills them again"
                };
                s.say(format!(
                "When a round ends, each player empties their holes into what they hold {again}, {refill} seeds a hole{last}, {}; {unfilled}.",
                self.setting(&refill_from, |e| match e {
                    RowEnd::Left if !f.board.owners.is_empty() => "their holes in their own numbering, first to last".to_string(),
                    RowEnd::Right if !f.board.owners.is_empty() => "their holes in their own numbering, last to first".to_string(),
                    RowEnd::Left => "starting from the left end of their row".to_string(),
                    RowEnd::Right => "starting from the right end of their row".to_string(),
                    RowEnd::OutsideIn => {
                        "from both ends of their row towards the middle, leftmost first".to_string()
                    }
                })
            ));
            }
            if poorest {
                s.say(self.setting(&r.matching_hole, |m| {
                    let matching = match m {
                        ruleset::MatchingHole::Full => format!("{refill} seeds, like every other"),
                        ruleset::MatchingHole::Same => "as many seeds as that partial hole".to_string(),
                    };
                    format!("The player holding the fewest seeds (the first in turn order on equal totals) lays out all of them; every other player fills the same number of holes and keeps the rest off the board, counted at the next refill. The hole matching the poorest player's partial last hole (the same place in the refill order) gets {matching}.")
                }));
            }
            if let Some(e) = &r.closed {
                s.note(self.hole_note(
                    "after every round but the last, once the round-end effects are made, these holes are out of play for the next round (not filled; play treats them as closed)",
                    e,
                    Ctx::End,
                ));
            }
            if let Some(give) = &r.give {
                let expression = give.seeds_expression();
                let size = match give.seeds.get_ref() {
                    ruleset::Amount::Number(1) => "1 seed".to_string(),
                    ruleset::Amount::Number(n) => format!("{n} seeds"),
                    ruleset::Amount::Expression(_) => "the seeds below".to_string(),
                };
                s.say(format!(
                    "{} the gift \"{}\"{}: one player gives {size} to each other player still in the match (never more than they hold).",
                    if restart { "Before the next round starts," } else { "Before the refill," },
                    give.name,
                    give.cites.as_ref().map(|c| format!(" ({c})")).unwrap_or_default(),
                ));
                s.note(self.hole_note("the player who gives is", &give.from, Ctx::End));
                if let Some(e) = &expression {
                    s.note(self.hole_note(
                        "the seeds given, read before anything is given",
                        e,
                        Ctx::End,
                    ));
                }
                if let Some(w) = &give.when {
                    s.note(self.note("the gift is made only when", w, Ctx::End));
                }
            }
            if let Some(rotate) = &r.rotate_owners {
                let turns = self.rules.rounds.as_ref().map_or(0, |r| r.rotate_owners);
                let every = if turns == 1 {
                    "After every round".to_string()
                } else {
                    format!("Every {turns} rounds")
                };
                let every = match rotate.get_ref() {
                    ruleset::Count::Number(_) => every,
                    ruleset::Count::FromOption(o) => {
                        format!("{every} (option `{}`, now \"{turns}\")", o.option.get_ref())
                    }
                };
                s.say(format!(
                    "{every}, {}, each player's holes pass to the next player in turn order.",
                    if restart {
                        "before the next round starts"
                    } else {
                        "before the refill"
                    }
                ));
            }
            if restart || laid_out {
                // Every round starts from the layout, or the players lay out what they have:
                // nobody is ever short of a refill.
            } else if partial && least > 1 {
                s.say(format!(
                    "A player holding fewer than {least} seeds at the end of a round cannot fill a hole{}",
                    if self.rules.geometry.seats > 2 {
                        " and is out of the match: their turns are passed over and their holes stay closed. The match ends when one player is left (or a match end holds): the player holding the most seeds wins."
                    } else {
                        ", and the match ends: the player holding more seeds wins."
                    }
                ));
            } else if partial && self.rules.geometry.seats > 2 {
                s.say("A player holding no seed at the end of a round cannot fill a hole and is out of the match: their turns are passed over and their holes stay closed. The match ends when one player is left (or a match end holds): the player holding the most seeds wins.");
            } else if partial {
                s.say("A player holding no seed at the end of a round cannot fill a hole, and the match ends: the other player, holding every seed left in play, wins.");
            } else if self.rules.geometry.seats > 2 {
                s.say(format!(
                    "A player holding fewer than {refill} seeds at the end of a round cannot fill a hole and is out of the match: their turns are passed over and their holes stay closed. The match ends when one player is left (or a match end holds): the player holding the most seeds wins."
                ));
            } else {
                // A piece fills a hole where the arrangement puts pieces down at every round.
                let piece = match &self.rules.pieces {
                    Some(kind)
                        if self
                            .rules
                            .arrange
                            .as_ref()
                            .is_some_and(|a| a.at.at_rounds()) =>
                    {
                        format!(" and no {}", kind.name)
                    }
                    _ => String::new(),
                };
                s.say(format!(
                    "A player holding fewer than {refill} seeds{piece} at the end of a round cannot fill a hole, and the match ends: the player holding more seeds wins."
                ));
            }
            s.say(format!(
                "The next round is started by {}.",
                self.setting(&r.next_starter, |n| match n {
                    NextStarter::RemainderTaker => "the player who took the seeds left on the board (when each took their own, the player who would have moved next)".to_string(),
                    NextStarter::Alternate => "the player who did not start the round just ended".to_string(),
                    NextStarter::Winner => "the winner of the round just ended (on a draw, the player who did not start it)".to_string(),
                    NextStarter::Loser => "the loser of the round just ended (on a draw, the player who did not start it)".to_string(),
                    NextStarter::WithHoles => "the player who now holds the holes the last round's starter held".to_string(),
                    NextStarter::Same => "the player who started the round before, the same player every round".to_string(),
                    NextStarter::Richer => "the player holding the most seeds (on equal totals, the later in turn order)".to_string(),
                    NextStarter::Poorer => "the player holding the fewest seeds (on equal totals, the first in turn order)".to_string(),
                })
            ));
            let last_round = self
                .rules
                .rounds
                .as_ref()
                .is_some_and(|r| r.match_winner == ruleset::MatchWinner::LastRound);
            if let Some(e) = &r.match_ends {
                let mut n = self.note("", e, Ctx::End);
                n.role = match (last_round, restart) {
                    (true, true) => {
                        "the match ends, the winner of its last round winning it (a draw if that round was drawn), when at the end of a round"
                    }
                    (true, false) => {
                        "the match also ends, the winner of its last round winning it (a draw if that round was drawn), when at the end of a round"
                    }
                    (false, true) => {
                        "the match ends, the player holding more seeds winning, when at the end of a round"
                    }
                    (false, false) => {
                        "the match also ends, the player holding more seeds winning, when at the end of a round"
                    }
                };
                s.note(n);
            }
            if self
                .rules
                .rounds
                .as_ref()
                .is_some_and(|r| r.end_on_repeated_start)
            {
                s.say("A match that comes back to a round start it has already seen ends at once: the player holding more seeds wins.");
            }
            out.push(s);
        }

        let mut opts = Section::new("options", "Options", &None, None);
        opts.say(match self.rules.options.len() {
            0 => "This ruleset has no options.".to_string(),
            n => format!(
                "{} open {} of the documented rules, each with the reading in force; choose another with --option NAME=VALUE.",
                n,
                if n == 1 { "point" } else { "points" }
            ),
        });
        out.push(opts);
        for o in &self.rules.options {
            let header = format!("[options.{}]", o.name);
            let mut s = Section::new(
                "option",
                format!("Option `{}` = \"{}\"", o.name, o.value),
                &o.cites,
                self.header_line(&header, 0),
            );
            s.say(o.question.clone());
            let values: Vec<String> = o
                .values
                .iter()
                .map(|v| {
                    let mut t = format!("\"{v}\"");
                    if *v == o.default {
                        t.push_str(" (default)");
                    }
                    if *v == o.value && o.value != o.default {
                        t.push_str(" (chosen)");
                    }
                    t
                })
                .collect();
            s.say(format!("Values: {}.", values.join(", ")));
            s.say(format!("Why the default: {}", o.why));
            out.push(s);
        }
        out
    }

    fn board(&self, f: &RulesetFile) -> Section {
        let b = &f.board;
        let g = &self.rules.geometry;
        let mut s = Section::new("board", "Board", &b.cites, self.header_line("[board]", 0));
        let per = g.holes_per_player;
        if g.rows == 1 {
            let holes = |p: Player| {
                let holes: Vec<crate::rules::Pos> = g.holes_of(p).collect();
                match (holes.first(), holes.last()) {
                    (Some(&a), Some(&z)) if holes.len() > 1 => {
                        format!("{} to {}", g.label(a), g.label(z))
                    }
                    _ => holes
                        .iter()
                        .map(|&h| g.label(h))
                        .collect::<Vec<_>>()
                        .join(" "),
                }
            };
            let owners = (g.players())
                .map(|p| format!("{} owns {}", self.rules.player_title(p), holes(p)))
                .collect::<Vec<_>>()
                .join("; ");
            if g.players().all(|p| g.holes(p).is_empty()) {
                s.say(format!(
                    "A ring of {per} holes, r1 to r{per} counter-clockwise, r{per} followed by r1; no player owns a hole."
                ));
            } else {
                s.say(format!(
                    "A ring of {per} holes, r1 to r{per} counter-clockwise, r{per} followed by r1; {owners} (each player's holes numbered 1, 2, ... from their left, in that order)."
                ));
            }
        } else if !b.owners.is_empty() && g.rows == 2 {
            let holes = |p: Player| {
                g.holes_of(p)
                    .map(|h| g.label(h))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let owners = (g.players())
                .map(|p| format!("{} owns {}", self.rules.player_title(p), holes(p)))
                .collect::<Vec<_>>()
                .join("; ");
            s.say(format!(
                "Two rows of {} holes, s1 to s{per} from the near row's left and n1 to n{per} from the far row's own left, owned by blocks: {owners} (each player's holes in their own numbering).",
                g.holes_per_row
            ));
        } else if g.rows == 3 {
            let n = g.holes_per_row;
            let half = n / 2;
            s.say(format!(
                "Three rows of {n} holes: each player owns the row nearest them, numbered 1 to {n} from their left, and the {half} holes of the middle row on their right, numbered {} to {per} from the middle row's end inwards (South s1 to s{per}, North n1 to n{per}); only the two outer rows face each other.",
                n + 1
            ));
            if !b.owners.is_empty() {
                let owners = (g.players())
                    .map(|p| {
                        let holes: Vec<String> = g.holes_of(p).map(|h| g.label(h)).collect();
                        format!("{} owns {}", self.rules.player_title(p), holes.join(" "))
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                s.say(format!("The holes are shared by blocks instead: {owners}."));
            }
        } else if g.rows == 2 && b.neutral.is_empty() {
            s.say(format!(
                "Two rows of {} holes, one row for each player: South owns s1 to s{per} from South's left, North owns n1 to n{per} from North's left.",
                g.holes_per_row
            ));
        } else if g.rows == 2 {
            s.say(format!(
                "Two rows of {} holes, s1 to s{per} from South's left and n1 to n{per} from North's left, each row its player's but for the neutral holes.",
                g.holes_per_row
            ));
        } else {
            s.say(format!(
                "Four rows of {} holes, two rows for each player: South owns s1 to s{per}, North n1 to n{per}, numbered counter-clockwise from the left end of the player's outer row.",
                g.holes_per_row
            ));
        }
        // Whether some capture banks its seeds (rather than sowing them again at once).
        let banks = f.capture.is_empty() || f.capture.iter().any(|c| c.then != ruleset::After::Sow);
        s.say(match (b.stores, b.store_side) {
            (Stores::Reserve, _) if !banks => "Each player has a reserve beside the board, off the sowing track; captured seeds are sown again at once, never kept there.".to_string(),
            (Stores::Reserve, _) => "Captured seeds are kept in a reserve beside the board, off the sowing track.".to_string(),
            (Stores::Track, StoreSide::Right) => "Each player has a store on the sowing track after their rightmost hole; only its owner sows into it.".to_string(),
            (Stores::Track, StoreSide::Left) => "Each player has a store on the sowing track before their leftmost hole; only its owner sows into it.".to_string(),
        });
        if !b.neutral.is_empty() {
            let labels: Vec<&str> = b.neutral.iter().map(|h| h.get_ref().as_str()).collect();
            s.say(format!(
                "Neutral holes, owned by nobody: {}. They are sown into and looked at like any hole, and {}.",
                labels.join(", "),
                if self.rules.sow_from_any {
                    "a move may start from them, as from any hole"
                } else {
                    "no player moves from them"
                }
            ));
            if self.rules.rounds.is_some() {
                s.say("Between rounds the refill leaves them out: they keep what the round's end leaves in them into the next round.");
            }
        }
        // The holes' seeds; what the players hold at the start is told after them.
        let total: u32 = self.rules.initial.iter().map(|&n| u32::from(n)).sum();
        let start = |home: u8| {
            let seeds: Vec<u32> = (g.home_holes(home))
                .map(|h| u32::from(self.rules.initial.get(usize::from(h)).copied().unwrap_or(0)))
                .collect();
            join(&seeds)
        };
        s.say(match b.seeds.get_ref() {
            Seeds::Uniform(n) => format!(
                "Every hole starts with {}, {total} in all.",
                seeds_word(i64::from(*n))
            ),
            Seeds::Layout(l) => format!(
                "The holes start as S[{}] N[{}], {total} seeds in all.",
                join(&l.south),
                join(&l.north)
            ),
            Seeds::FromOption(o) => format!(
                "Every hole starts with the number of seeds the option `{}` gives, {total} in all.",
                o.option.get_ref()
            ),
            Seeds::Chosen(r) => format!(
                "The holes start as {}; here S[{}] N[{}], {total} seeds in all.",
                choosers(r),
                start(0),
                start(1)
            ),
        });
        let held = &self.rules.held_at_start;
        let seats = usize::from(self.rules.geometry.seats);
        let first = held.first().copied().unwrap_or(0);
        if held.iter().take(seats).all(|&n| n == first) {
            if first > 0 {
                s.say(format!(
                    "Each player also holds {} beside the board at the start: {} in all.",
                    seeds_word(i64::from(first)),
                    self.rules.total_seeds()
                ));
            }
        } else {
            let each: Vec<String> = (self.rules.geometry.players())
                .zip(held)
                .map(|(p, &n)| {
                    format!(
                        "{} {}",
                        self.rules.player_title(p),
                        seeds_word(i64::from(n))
                    )
                })
                .collect();
            s.say(format!(
                "Beside the board at the start, {}: {} in all.",
                each.join(", "),
                self.rules.total_seeds()
            ));
        }
        for (name, holes) in &b.sets {
            let labels: Vec<&str> = holes.iter().map(|h| h.get_ref().as_str()).collect();
            s.say(format!(
                "The set `{name}` (read as sets.{name}) is the holes {}.",
                labels.join(", ")
            ));
        }
        s
    }

    fn sowing(&self, f: &RulesetFile) -> Section {
        let sw = &f.sowing;
        let g = &self.rules.geometry;
        let per = g.holes_per_player;
        let mut s = Section::new(
            "sowing",
            "Sowing",
            &sw.cites,
            self.header_line("[sowing]", 0),
        );
        let lifted = if sw.lift.is_some() {
            "some of the seeds (see below)"
        } else {
            "all the seeds"
        };
        if g.rows == 1 {
            s.say(format!(
                "A move lifts {lifted} of one hole and sows them {}, one seed into each hole.",
                self.setting(&sw.direction, |d| match d {
                    Direction::Ccw => format!("counter-clockwise round the ring (r1 to r{per}, then r1 again)"),
                    Direction::Cw => format!("clockwise round the ring (r{per} to r1, then r{per} again)"),
                    Direction::Choose => "round the ring in the direction the mover chooses for the move, written r3:ccw or r3:cw".to_string(),
                })
            ));
        } else if g.rows == 2 || g.rows == 3 {
            s.say(format!(
                "A move lifts {lifted} of one hole and sows them {}, one seed into each hole.",
                self.setting(&sw.direction, |d| match d {
                    Direction::Ccw => {
                        format!("counter-clockwise (s1 to s{per}, then n1 to n{per})")
                    }
                    Direction::Cw => format!("clockwise (s{per} to s1, then n{per} to n1)"),
                    Direction::Choose => format!(
                        "in the direction the mover chooses for the move: counter-clockwise (s1 to s{per}, then n1 to n{per}) or clockwise, written s3:ccw or s3:cw"
                    ),
                })
            ));
        } else {
            s.say(format!(
                "A move lifts {lifted} of one hole and sows them {}, one seed into each hole: no seed enters the opponent's rows.",
                self.setting(&sw.direction, |d| match d {
                    Direction::Ccw => format!(
                        "counter-clockwise round the mover's own {per} holes (1 to {per}, then 1 again)"
                    ),
                    Direction::Cw => format!(
                        "clockwise round the mover's own {per} holes ({per} to 1, then {per} again)"
                    ),
                    Direction::Choose => format!(
                        "round the mover's own {per} holes in the direction the mover chooses for the move (written s3:ccw or s3:cw)"
                    ),
                })
            ));
        }
        if let Some(e) = &sw.lift {
            s.say("How many seeds the move lifts is given below (at most what the hole holds); the rest stay in the hole. Relayed laps lift whole holes.");
            s.note(self.hole_note("seeds lifted", e, Ctx::Move));
        }
        if let Some(e) = &sw.gather {
            s.say("The move also lifts the seeds of every hole of the set below, read as it starts, before anything is lifted (the hole played, closed holes and empty ones left out), and sows them with the hole's own in its first lap.");
            s.note(self.hole_note("holes gathered", e, Ctx::Move));
        }
        s.say(self.setting(&sw.first_seed, |v| match v {
            FirstSeed::Next => "The first seed of each lap goes into the hole after the one lifted".to_string(),
            FirstSeed::Origin => "The first seed of each lap goes back into the hole lifted, except that a single seed moves on to the next hole".to_string(),
            FirstSeed::OriginAlways => "The first seed of each lap goes back into the hole lifted, a single seed too: a move of one seed puts it straight back, and the lap ends there".to_string(),
        }) + ".");
        s.say(
            self.setting(&sw.skip_origin, |v| match v {
                SkipOrigin::Never => {
                    "A lap that comes round to the hole it started from sows into it like any other"
                        .to_string()
                }
                SkipOrigin::Move => {
                    "A lap that comes round passes over the hole the move started from".to_string()
                }
                SkipOrigin::Lap => {
                    "A lap that comes round passes over the hole it was lifted from".to_string()
                }
            }) + ".",
        );
        if f.rounds.is_some()
            || matches!(sw.closed_holes, Setting::FromOption(_))
            || matches!(sw.closed_holes, Setting::Fixed(ClosedHoles::Empty))
        {
            s.say(self.setting(&sw.closed_holes, |v| match v {
                ClosedHoles::Absent => "Closed holes are off the track for every purpose: sowing passes over them, and so do next and prev".to_string(),
                ClosedHoles::Empty => "Closed holes are never sown into nor played, but next and prev see them as empty holes".to_string(),
            }) + ".");
        }
        if f.sowing.relay.is_none() {
            s.say("The move ends with the last seed: there is no relay.");
        }
        if let Some(laps) = self.rules.max_laps {
            s.say(format!(
                "A move takes at most {laps} laps: after lap {laps} it ends whatever the relay would do, and captured seeds still in hand go back into the hole the lap ended in."
            ));
        }
        s
    }

    fn endings(&self, f: &RulesetFile) -> Vec<Section> {
        let e = &f.end;
        let line = self.header_line("[end]", 0);
        let mut out = Vec::new();
        // In a match, every ending ends the round (and the match, when it cannot go on).
        let or_round = if f.rounds.is_some() {
            " (or round)"
        } else {
            ""
        };
        let mut s = Section::new("end", "End: no legal move", &e.no_move.cites, line);
        let when = if self.rules.pass {
            "When no player has a legal move (a player who cannot move passes while another can)"
        } else {
            "When the player to move has no legal move"
        };
        s.say(format!(
            "{when}, the game{} ends: {}",
            or_round,
            self.ending(
                &e.no_move.remaining,
                &e.no_move.result,
                "the player who cannot move"
            )
        ));
        out.push(s);
        let endless_default = ruleset::Ending {
            remaining: Setting::Fixed(Remaining::Owners),
            result: Setting::Fixed(Verdict::MostSeeds),
            enabled: Setting::Fixed(true),
            cites: None,
        };
        if f.sowing.relay.is_some() || e.endless_move.is_some() {
            let x = e.endless_move.as_ref().unwrap_or(&endless_default);
            let mut s = Section::new("end", "End: endless move", &x.cites, line);
            s.say(format!(
                "A move whose laps would never end (the state after a lap repeats) stops at the first repeat, and the game{} ends: {}",
                or_round,
                self.ending(&x.remaining, &x.result, "the player making the move")
            ));
            if e.endless_move.is_none() {
                s.say("(The ruleset does not say: this is the default.)");
            }
            out.push(s);
        }
        match (&e.cycle, self.rules.cycle) {
            (Some(x), Some(_)) => {
                let mut s = Section::new("end", "End: repeated position", &x.cites, line);
                s.say(format!(
                    "When a position comes back with the same player to move (since the last seeds were banked), the game{} ends: {}",
                    or_round,
                    self.ending(&x.remaining, &x.result, "the player to move")
                ));
                out.push(s);
            }
            (x, _) => {
                let cites = x.as_ref().and_then(|x| x.cites.clone());
                let mut s = Section::new("end", "End: repeated position", &cites, line);
                s.say("A position that comes back does not end play: the players may choose other moves.");
                out.push(s);
            }
        }
        if let Some(x) = &e.no_capture
            && self.rules.no_capture.is_some()
        {
            let mut s = Section::new("end", "End: no capture", &x.cites, line);
            s.say(format!(
                "After every sowing, every legal move of each player is played out on a copy of the position; when none of them would capture, the game{} ends: {}",
                or_round,
                self.ending(&x.remaining, &x.result, "the player to move next")
            ));
            out.push(s);
        }
        if let Some(x) = &e.no_further_capture
            && self.rules.no_further_capture.is_some()
        {
            let mut s = Section::new("end", "End: no further capture", &x.cites, line);
            s.say(format!(
                "After every move or pass, the play to come is followed on a copy of the position for as long as it is forced (the player to move has one legal move, or must pass); when it comes, without a capture, to a player who cannot move, a move that never ends, a position it has already met or an ending of the rules, no further capture can be made and the game{} ends: {}",
                or_round,
                self.ending(&x.remaining, &x.result, "the player to move next")
            ));
            s.say("Where a player of that play would have a choice, the game goes on.");
            out.push(s);
        }
        if let Some(x) = &e.no_capture_reachable
            && self.rules.no_capture_reachable.is_some()
        {
            let mut s = Section::new("end", "End: no capture reachable", &x.cites, line);
            s.say(format!(
                "After every move or pass, every position that some sequence of legal moves (and passes) by any player can reach is searched on copies of the position, each once; a line of play stops at a player who cannot move, a move that never ends, a position already met or an ending of the rules. When no move of that play captures, no capture can be made any more and the game{} ends: {}",
                or_round,
                self.ending(&x.remaining, &x.result, "the player to move next")
            ));
            s.say(format!(
                "A search that would visit more than {} positions gives no verdict, and the game goes on (an engine limit, not a rule).",
                crate::rules::MAX_REACHED
            ));
            out.push(s);
        }
        if let Some(x) = &e.concede
            && self.rules.concede.is_some()
        {
            let mut s = Section::new("end", "End: a player concedes", &x.cites, line);
            s.say(format!(
                "At their turn, instead of moving, the player to move may concede (written `concede`), and the game ends{}: {}",
                if or_round.is_empty() { "" } else { ", and the match with it" },
                self.ending(&x.remaining, &x.result, "the player who concedes")
            ));
            s.say("Conceding is not among the legal moves listed: players and searches never choose it.");
            out.push(s);
        }
        let mut s = Section::new("end", "The engine's safety limits", &None, None);
        s.say(format!(
            "These are not rules of the game: a move still going after {} laps without a repeat or past {} steps of work, or a game{} still going after {} plies, is stopped with no result.",
            crate::rules::MAX_LAPS_PER_MOVE,
            crate::rules::MAX_STEPS_PER_MOVE,
            if or_round.is_empty() { "" } else { " or match" },
            crate::rules::MAX_PLIES
        ));
        out.push(s);
        for (i, w) in e.when.iter().enumerate() {
            let mut s = Section::new(
                "end",
                format!("End: \"{}\"", w.name),
                &w.cites,
                self.header_line("[[end.when]]", i),
            );
            let mut n = self.note("", &w.when, Ctx::End);
            n.role = if or_round.is_empty() {
                "after every sowing, the game ends when"
            } else {
                "after every sowing, the game (or round) ends when"
            };
            s.note(n);
            s.say(format!(
                "Then {}",
                self.ending(&w.remaining, &w.result, "the player to move next")
            ));
            out.push(s);
        }
        out
    }

    fn ending(
        &self,
        remaining: &Setting<Remaining>,
        result: &Setting<Verdict>,
        mover: &str,
    ) -> String {
        let r = self.setting(remaining, |r| match r {
            Remaining::Owners => "each player takes the seeds in their own holes".to_string(),
            Remaining::Mover => format!("{mover} takes all the seeds left on the board"),
            Remaining::Opponent => {
                format!("the opponent of {mover} takes all the seeds left on the board")
            }
            Remaining::LastMover => {
                "the player who made the last move takes all the seeds left on the board"
                    .to_string()
            }
            Remaining::Starter => {
                "the player who started the round takes all the seeds left on the board".to_string()
            }
            Remaining::Removed => "the seeds left on the board leave the game".to_string(),
            Remaining::Stay => {
                "the seeds left on the board stay there, counted for nobody".to_string()
            }
        });
        let v = self.setting(result, |v| match v {
            // With more than two players, a tie for the most is a draw, whoever holds less.
            Verdict::MostSeeds if self.rules.geometry.seats > 2 => {
                "the player holding the most seeds wins, and a tie for the most is a draw"
                    .to_string()
            }
            Verdict::MostSeeds => {
                "the player holding more seeds wins, and equal holdings are a draw".to_string()
            }
            Verdict::Draw => "the game is a draw".to_string(),
            Verdict::MoverWins => format!("{mover} wins"),
            Verdict::MoverLoses => format!("{mover} loses"),
        });
        // `[end] neutral_seeds` holds at every ending, whatever `remaining` says.
        let neutral = match self.rules.neutral_seeds {
            _ if self.rules.geometry.neutral_mask() == 0 => "",
            NeutralSeeds::Stay => "; the seeds in the neutral holes stay there, counted for nobody",
            NeutralSeeds::Shared => {
                "; the seeds in the neutral holes are shared equally among the players, those that do not divide staying there, counted for nobody"
            }
        };
        format!("{r}{neutral}; {v}.")
    }
}

/// Where an expression is read: names such as `origin` and `mover` mean different things.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Legal,
    Move,
    End,
    /// A seed put or picked up in the arrangement: `origin`, `here` and `last` are its hole.
    Place,
}

impl Ctx {
    /// Where the clauses tried at `moment` read.
    fn of(moment: Moment) -> Ctx {
        match moment {
            Moment::Put | Moment::Pick => Ctx::Place,
            _ => Ctx::Move,
        }
    }
}

impl Explainer<'_> {
    /// A condition, as a clause of an English sentence.
    fn cond(&self, n: &Node, ctx: Ctx) -> String {
        match &n.kind {
            NodeKind::Bool(true) => "always".into(),
            NodeKind::Bool(false) => "never".into(),
            NodeKind::Name(name) => match name.as_str() {
                "last_seed" => "this is the last seed of the lap".into(),
                "first_move" => "the mover has not moved yet in this game or round".into(),
                "reached_opponent" => "the move has dropped a seed into an opponent's hole".into(),
                "resowing" => "the lap sows captured seeds again".into(),
                "piece_dropped" => format!(
                    "what was just dropped is a {}",
                    crate::render::piece_name(self.rules)
                ),
                _ => self.value(n, ctx),
            },
            NodeKind::Unary(UnaryOp::Not, x) => match &x.kind {
                NodeKind::Name(name) if name == "last_seed" => {
                    "this is not the last seed of the lap".into()
                }
                NodeKind::Name(name) if name == "first_move" => {
                    "the mover has moved before in this game or round".into()
                }
                NodeKind::Name(name) if name == "reached_opponent" => {
                    "the move has not dropped a seed into an opponent's hole".into()
                }
                NodeKind::Name(name) if name == "resowing" => {
                    "the lap does not sow captured seeds again".into()
                }
                NodeKind::Name(name) if name == "piece_dropped" => {
                    "what was just dropped is a seed".into()
                }
                // "the number of the hole played is not 1, 8, 9 or 16" (a number, not a count).
                NodeKind::In(a, list) if self.counted(a, ctx).is_none() => {
                    let items: Vec<String> = list.iter().map(|x| self.value(x, ctx)).collect();
                    format!("{} is not {}", self.value(a, ctx), or_list(&items))
                }
                NodeKind::InSet(h, set) => {
                    format!("{} is not in {}", self.value(h, ctx), self.value(set, ctx))
                }
                // A flag variable, one or a player's: "`free` of the mover is false".
                NodeKind::Name(name) | NodeKind::Call(name, _, _) if self.is_flag(name) => {
                    format!("{} is false", self.value(x, ctx))
                }
                NodeKind::Call(f, _, a) => match (f.as_str(), a.as_slice()) {
                    ("own", [h]) => format!("{} is not the mover's", self.value(h, ctx)),
                    ("closed", [h]) => format!("{} is open", self.value(h, ctx)),
                    ("is_store", [h]) => format!("{} is not a store", self.value(h, ctx)),
                    ("neutral", [h]) => format!("{} is a player's", self.value(h, ctx)),
                    ("claimed", [h]) => format!("{} is not a claimed hole", self.value(h, ctx)),
                    _ => format!("it is not so that {}", self.cond(x, ctx)),
                },
                NodeKind::Binary(BinaryOp::And | BinaryOp::Or, _, _) => {
                    format!("it is not so that ({})", self.cond(x, ctx))
                }
                _ => format!("it is not so that {}", self.cond(x, ctx)),
            },
            NodeKind::Binary(BinaryOp::And, a, b) => {
                format!(
                    "{} and {}",
                    self.operand(a, BinaryOp::And, ctx),
                    self.operand(b, BinaryOp::And, ctx)
                )
            }
            NodeKind::Binary(BinaryOp::Or, a, b) => {
                format!(
                    "{} or {}",
                    self.operand(a, BinaryOp::Or, ctx),
                    self.operand(b, BinaryOp::Or, ctx)
                )
            }
            NodeKind::Binary(op, a, b) if is_comparison(*op) => self.comparison(*op, a, b, ctx),
            NodeKind::InSet(h, set) => {
                format!("{} is in {}", self.value(h, ctx), self.value(set, ctx))
            }
            NodeKind::In(a, list) => {
                let items: Vec<String> = list.iter().map(|x| self.value(x, ctx)).collect();
                match self.counted(a, ctx) {
                    Some(c) => c.one_of(&items),
                    None => format!("{} is {}", self.value(a, ctx), or_list(&items)),
                }
            }
            NodeKind::Call(f, _, a) => match (f.as_str(), a.as_slice()) {
                ("own", [h]) => format!("{} is the mover's", self.value(h, ctx)),
                ("is_store", [h]) => format!("{} is a store", self.value(h, ctx)),
                ("neutral", [h]) => format!("{} is neutral", self.value(h, ctx)),
                ("closed", [h]) => format!("{} is closed", self.value(h, ctx)),
                ("claimed", [h]) => format!("{} is a claimed hole", self.value(h, ctx)),
                _ => self.value(n, ctx),
            },
            _ => self.value(n, ctx),
        }
    }

    /// An operand of `and` / `or`: the other connective is bracketed, so the grouping of the
    /// source survives in English.
    fn operand(&self, n: &Node, parent: BinaryOp, ctx: Ctx) -> String {
        match &n.kind {
            NodeKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), _, _) if *op != parent => {
                format!("({})", self.cond(n, ctx))
            }
            _ => self.cond(n, ctx),
        }
    }

    fn comparison(&self, op: BinaryOp, a: &Node, b: &Node, ctx: Ctx) -> String {
        // `entered` against 0 tells an entry from a sowing.
        if let (NodeKind::Name(name), NodeKind::Number(0)) = (&a.kind, &b.kind)
            && name == "entered"
        {
            let tried = if ctx == Ctx::Legal { " tried" } else { "" };
            match op {
                BinaryOp::Eq | BinaryOp::Le => {
                    return format!("the move{tried} sows a hole (it enters no seeds from hand)");
                }
                BinaryOp::Gt | BinaryOp::Ne => {
                    return format!("the move{tried} enters seeds from hand");
                }
                _ => {}
            }
        }
        // An option compared with one of its values folds to a constant: say which way.
        if let (NodeKind::Name(name), NodeKind::Text(v)) = (&a.kind, &b.kind)
            && let Some(opt) = name.strip_prefix("option.")
        {
            let now = self
                .rules
                .options
                .iter()
                .find(|o| o.name == opt)
                .map(|o| o.value.as_str());
            let holds = match (op, now) {
                (BinaryOp::Eq, Some(now)) => Some(now == v),
                (BinaryOp::Ne, Some(now)) => Some(now != v),
                _ => None,
            };
            let is = if op == BinaryOp::Ne { "is not" } else { "is" };
            return match (now, holds) {
                (Some(now), Some(h)) => format!(
                    "option `{opt}` {is} \"{v}\" ({}: the option is \"{now}\")",
                    if h { "true" } else { "false" }
                ),
                _ => format!("option `{opt}` {is} \"{v}\""),
            };
        }
        if let (Some(count), NodeKind::Number(k)) = (self.counted(a, ctx), &b.kind) {
            return count.compared(op, *k);
        }
        // A count's parity: `seeds(last) % 2 == 1` holds an odd number.
        if let (NodeKind::Binary(BinaryOp::Rem, x, two), NodeKind::Number(k @ (0 | 1))) =
            (&a.kind, &b.kind)
            && matches!(two.kind, NodeKind::Number(2))
            && let Some(count) = self.counted(x, ctx)
            && matches!(op, BinaryOp::Eq | BinaryOp::Ne)
        {
            let odd = (*k == 1) == (op == BinaryOp::Eq);
            let unit = match count {
                Counted::Sowings => "sowings",
                _ => "seeds",
            };
            return count.sentence(&format!(
                "an {} number of {unit}",
                if odd { "odd" } else { "even" }
            ));
        }
        if let (Some(count), NodeKind::Binary(arith, _, _)) = (self.counted(a, ctx), &b.kind)
            && arith_rank(*arith).is_some()
        {
            return count.compared_to(op, &self.value(b, ctx));
        }
        // `number(claim(p))` is 0 exactly when p has claimed no hole.
        if let (NodeKind::Call(f, _, args), NodeKind::Number(0)) = (&a.kind, &b.kind)
            && let (Some(NodeKind::Call(g, _, inner)), "number") =
                (args.first().map(|x| &x.kind), f.as_str())
            && g == "claim"
            && let Some(p) = inner.first()
        {
            let who = self.value(p, ctx);
            match op {
                BinaryOp::Eq | BinaryOp::Le => return format!("{who} has not claimed a hole"),
                BinaryOp::Ne | BinaryOp::Gt => return format!("{who} has claimed a hole"),
                _ => {}
            }
        }
        // A direction compared with `none`: whether it has been set.
        if let NodeKind::Name(k) = &b.kind
            && k == "none"
        {
            let x = self.value(a, ctx);
            match op {
                BinaryOp::Eq => return format!("{x} is not set yet"),
                BinaryOp::Ne => return format!("{x} is set"),
                _ => {}
            }
        }
        let (x, y) = (self.value(a, ctx), self.value(b, ctx));
        let verb = match op {
            BinaryOp::Eq => "is",
            BinaryOp::Ne => "is not",
            BinaryOp::Lt => "is less than",
            BinaryOp::Le => "is at most",
            BinaryOp::Gt => "is more than",
            BinaryOp::Ge => "is at least",
            _ => op.symbol(),
        };
        format!("{x} {verb} {y}")
    }

    /// What a number counts, when it counts seeds somewhere.
    fn counted(&self, n: &Node, ctx: Ctx) -> Option<Counted> {
        match &n.kind {
            NodeKind::Call(f, _, a) => match (f.as_str(), a.as_slice()) {
                ("seeds", [h]) => Some(Counted::Place(self.value(h, ctx))),
                ("row_seeds", [p]) => Some(Counted::Place(self.row_of(&self.value(p, ctx)))),
                ("store", [p]) => Some(Counted::Player(self.value(p, ctx))),
                ("max_seeds", [p]) => Some(Counted::Place(format!(
                    "the fullest of {} holes",
                    possessive(&self.value(p, ctx))
                ))),
                _ => None,
            },
            NodeKind::Name(name) if name == "board_seeds" => {
                Some(Counted::Place("the board".into()))
            }
            NodeKind::Name(name) if name == "move_captures" => Some(Counted::Captures),
            NodeKind::Name(name) if name == "turn_sowings" => Some(Counted::Sowings),
            NodeKind::Name(name) if name == "hand" => Some(Counted::Hand),
            _ => None,
        }
    }

    /// A player's holes, as `row_seeds` counts them: their row, or their side.
    fn row_of(&self, who: &str) -> String {
        let g = &self.rules.geometry;
        let one_row =
            g.rows == 2 && (g.players()).all(|p| g.holes(p).len() == usize::from(g.holes_per_row));
        row_or_side(who, one_row)
    }

    /// A value (a hole, a number, a player), as a noun phrase.
    fn value(&self, n: &Node, ctx: Ctx) -> String {
        match &n.kind {
            NodeKind::Number(k) => k.to_string(),
            NodeKind::Text(t) => format!("\"{t}\""),
            NodeKind::Bool(b) => b.to_string(),
            NodeKind::Name(name) => match name.as_str() {
                "here" | "last" | "origin" if ctx == Ctx::Place => "this hole".into(),
                "here" if self.in_skip.get() => "the hole the seed would fall into".into(),
                "here" => "the hole just sown".into(),
                "last" => "the last hole sown".into(),
                "origin" if ctx == Ctx::Legal => "the hole played".into(),
                "origin" => "the hole the move started from".into(),
                "lap_origin" => "the hole this lap was lifted from".into(),
                "chosen" => "the hole the mover chose".into(),
                "hole" => (self.in_aggregate.borrow().clone())
                    .unwrap_or_else(|| "the hole just taken".into()),
                "all_holes" => "the holes of the board".into(),
                "mover" if ctx == Ctx::End => "the player to move".into(),
                "mover" => "the mover".into(),
                "opponent" if ctx == Ctx::End => "the player who just moved".into(),
                "opponent" => "the opponent".into(),
                "starter" => "the player who moved first".into(),
                "round_winner" => "the winner of the round".into(),
                "south" => "South".into(),
                "north" => "North".into(),
                "holes" => format!("{} (the holes in a row)", self.rules.geometry.holes_per_row),
                "board_seeds" => "the seeds in all holes".into(),
                "move_captures" => "the seeds captured so far in this move".into(),
                "turn_sowings" => "the number of sowings the mover has made this turn".into(),
                "hand" => "the seeds in hand (this one included)".into(),
                "lap" => "the number of the lap (1 for the move's first)".into(),
                "entered" if ctx == Ctx::Legal => {
                    "the seeds the move tried enters from hand".into()
                }
                "entered" => "the seeds the move entered from hand".into(),
                "direction" if ctx == Ctx::Legal => "the direction tried".into(),
                "direction" if self.rules.relay.as_ref().is_some_and(|r| r.reverse) => {
                    "the direction of the lap (the last lap's, once the move has ended)".into()
                }
                "direction" => "the move's direction".into(),
                "cw" => "clockwise".into(),
                "ccw" => "counter-clockwise".into(),
                "none" => "no direction yet".into(),
                "landed_on" => {
                    "what the last hole sown held before the lap's last seed fell into it".into()
                }
                "last_seed" | "first_move" | "reached_opponent" | "resowing" | "piece_dropped" => {
                    self.cond(n, ctx)
                }
                var if self.rules.vars.iter().any(|v| v.name == var) => format!("`{var}`"),
                set if set.starts_with("sets.") && self.rules.sets.contains_key(&set[5..]) => {
                    let g = &self.rules.geometry;
                    let mask = self.rules.sets.get(&set[5..]).copied().unwrap_or(0);
                    let labels = g.labels_of(mask);
                    format!("the set `{}` ({})", &set[5..], labels.join(", "))
                }
                other => match other.strip_prefix("option.") {
                    Some(opt) => {
                        let now = self
                            .rules
                            .options
                            .iter()
                            .find(|o| o.name == opt)
                            .map(|o| o.value.clone());
                        format!("option `{opt}` (now \"{}\")", now.unwrap_or_default())
                    }
                    None => format!("`{other}`"),
                },
            },
            NodeKind::Call(f, _, args) => self.call(f, args, ctx),
            NodeKind::Unary(UnaryOp::Neg, x) => format!("minus {}", self.value(x, ctx)),
            NodeKind::Unary(UnaryOp::Not, _) => self.cond(n, ctx),
            NodeKind::Binary(op, a, b) => {
                // Operands that are sums or products themselves are bracketed where the words
                // alone would group them otherwise.
                let bracket = |x: &Node, right: bool| {
                    // "the remainder of x divided by y" has no end of its own: it is bracketed
                    // inside other arithmetic, and so is anything inside it.
                    let (inner, rem) = match &x.kind {
                        NodeKind::Binary(inner, _, _) => {
                            (arith_rank(*inner), *inner == BinaryOp::Rem)
                        }
                        _ => (None, false),
                    };
                    let text = self.value(x, ctx);
                    match (inner, arith_rank(*op)) {
                        (Some(i), Some(o))
                            if i < o || (right && i == o) || rem || *op == BinaryOp::Rem =>
                        {
                            format!("({text})")
                        }
                        _ => text,
                    }
                };
                let (x, y) = (bracket(a, false), bracket(b, true));
                match op {
                    BinaryOp::Add => format!("{x} plus {y}"),
                    BinaryOp::Sub => format!("{x} minus {y}"),
                    BinaryOp::Mul => format!("{x} times {y}"),
                    BinaryOp::Div => format!("{x} divided by {y}"),
                    BinaryOp::Rem => format!("the remainder of {x} divided by {y}"),
                    _ => self.cond(n, ctx),
                }
            }
            NodeKind::In(..) | NodeKind::InSet(..) => self.cond(n, ctx),
        }
    }

    /// Whether a name is one of the rules' flag variables.
    fn is_flag(&self, name: &str) -> bool {
        (self.rules.vars.iter()).any(|v| v.name == name && v.kind == ruleset::VarKind::Flag)
    }

    fn call(&self, f: &str, args: &[Node], ctx: Ctx) -> String {
        let arg = |i: usize| args.get(i).map(|a| self.value(a, ctx)).unwrap_or_default();
        if self.rules.vars.iter().any(|v| v.name == f) {
            // A variable each player has, read for one of them.
            return format!("`{f}` of {}", arg(0));
        }
        match f {
            "next" | "prev" => {
                // next(next(x)) reads better as "the 2nd hole after x".
                let mut depth = 1;
                let mut inner = args.first();
                while let Some(NodeKind::Call(g, _, a)) = inner.map(|n| &n.kind) {
                    if g != f || a.len() != 1 {
                        break;
                    }
                    depth += 1;
                    inner = a.first();
                }
                let base = inner.map(|a| self.value(a, ctx)).unwrap_or_default();
                let word = if f == "next" { "after" } else { "before" };
                match depth {
                    1 => format!("the hole {word} {base}"),
                    d => format!("the {} hole {word} {base}", ordinal(d)),
                }
            }
            "ahead" => match args.get(1).map(|k| &k.kind) {
                Some(NodeKind::Number(1)) => format!("the hole after {}", arg(0)),
                Some(NodeKind::Number(k)) => {
                    format!(
                        "the hole {k} holes on from {} in the sowing direction",
                        arg(0)
                    )
                }
                _ => format!(
                    "the hole ({}) holes on from {} in the sowing direction",
                    arg(1),
                    arg(0)
                ),
            },
            "first_after" | "first_before" => match args.get(1) {
                Some(c) => {
                    let outer = self.in_aggregate.replace(Some("it".into()));
                    let cond = self.cond(c, ctx);
                    self.in_aggregate.replace(outer);
                    let (side, going) = if f == "first_after" {
                        ("after", "on")
                    } else {
                        ("before", "back")
                    };
                    format!(
                        "the first hole {side} {}, going {going} round the board, such that {cond}",
                        arg(0)
                    )
                }
                None => f.to_string(),
            },
            "seeds" => format!("the seeds in {}", arg(0)),
            "number" => format!("the number of {}", arg(0)),
            "opposite" => format!("the hole facing {}", arg(0)),
            "behind" => format!("the hole behind {}", arg(0)),
            "owner" => format!("the owner of {}", arg(0)),
            "store" => format!("the seeds {} holds", arg(0)),
            "pieces" => format!(
                "the number of {}s in {}",
                crate::render::piece_name(self.rules),
                arg(0)
            ),
            "pieces_held" => format!(
                "the number of {}s {} holds off the board",
                crate::render::piece_name(self.rules),
                arg(0)
            ),
            "row_seeds" => format!("the seeds in {}", self.row_of(&arg(0))),
            "hole" => match args.get(1).map(|k| &k.kind) {
                Some(NodeKind::Number(_) | NodeKind::Name(_)) | None => {
                    format!("{} hole {}", possessive(&arg(0)), arg(1))
                }
                Some(_) => format!("{} hole numbered ({})", possessive(&arg(0)), arg(1)),
            },
            "max_seeds" => format!("the most seeds in any one of {} holes", possessive(&arg(0))),
            "holes_of" => format!("{} holes", possessive(&arg(0))),
            "inner_row" => format!("{} inner row", possessive(&arg(0))),
            "outer_row" => format!("{} outer row", possessive(&arg(0))),
            "count" | "filter" | "sum" | "max" | "min" | "any" | "all" => {
                self.aggregate(f, args, ctx)
            }
            "if" => match args {
                [c, a, b] => format!(
                    "{} when {}, otherwise {}",
                    self.value(a, ctx),
                    self.cond(c, ctx),
                    self.value(b, ctx)
                ),
                _ => f.to_string(),
            },
            "claim" => format!("the hole {} has claimed", arg(0)),
            "own" | "is_store" | "neutral" | "closed" | "claimed" => {
                let node = Node {
                    kind: NodeKind::Call(f.to_string(), 0..0, args.to_vec()),
                    span: 0..0,
                };
                self.cond(&node, ctx)
            }
            other => format!(
                "{other}({})",
                (0..args.len()).map(arg).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

impl Explainer<'_> {
    /// An aggregate over a set of holes, its body told of each hole of the set.
    fn aggregate(&self, f: &str, args: &[Node], ctx: Ctx) -> String {
        let (Some(set_node), Some(body)) = (args.first(), args.get(1)) else {
            return f.to_string();
        };
        let set = self.value(set_node, ctx);
        // A set of a player's holes reads "one of the mover's holes"; a row, "a hole of the
        // mover's inner row".
        let (one, each, all) = match &set_node.kind {
            NodeKind::Call(g, _, _) if g == "holes_of" => (
                format!("one of {set}"),
                format!("each of {set}"),
                set.clone(),
            ),
            // Every hole of the board: "the holes of the board", not "the holes of the holes of
            // the board".
            NodeKind::Name(n) if n == "all_holes" => (
                "a hole of the board".to_string(),
                "each hole of the board".to_string(),
                "holes of the board".to_string(),
            ),
            _ => (
                format!("a hole of {set}"),
                format!("each hole of {set}"),
                format!("holes of {set}"),
            ),
        };
        let seeds_of_hole = matches!(&body.kind, NodeKind::Call(g, _, a)
            if g == "seeds" && matches!(a.as_slice(), [h] if matches!(&h.kind, NodeKind::Name(n) if n == "hole")));
        // A body that names its hole more than once, or joins conditions: "each hole of S holds
        // 2 or each hole of S holds 3" would misread `all(S, seeds(hole) == 2 or seeds(hole) ==
        // 3)`, so such a body is told once, of "the hole", after the set.
        let compound = hole_mentions(body) > 1
            || matches!(
                &body.kind,
                NodeKind::Unary(UnaryOp::Not, _)
                    | NodeKind::Binary(BinaryOp::And | BinaryOp::Or, _, _)
            );
        let noun = match f {
            "any" if !compound => one,
            "all" if !compound => each,
            _ => "the hole".to_string(),
        };
        let outer = self.in_aggregate.replace(Some(noun));
        let told = match f {
            // `count(S, true)`: the size of the set.
            "count" if matches!(body.kind, NodeKind::Bool(true)) => {
                format!("the number of {all}")
            }
            "count" => format!("the number of {all} where {}", self.cond(body, ctx)),
            // "the mover's holes where ...", "the holes of S where ...".
            "filter" if all == set => format!("{all} where {}", self.cond(body, ctx)),
            "filter" => format!("the {all} where {}", self.cond(body, ctx)),
            "any" if compound => {
                format!("some hole of {set} is such that ({})", self.cond(body, ctx))
            }
            "all" if compound => format!(
                "every hole of {set} is such that ({})",
                self.cond(body, ctx)
            ),
            "any" | "all" => self.cond(body, ctx),
            "sum" if seeds_of_hole => format!("the seeds in {set}"),
            "sum" => format!("the total of ({}) over {set}", self.value(body, ctx)),
            "max" => format!(
                "the largest value of ({}) among {set}",
                self.value(body, ctx)
            ),
            _ => format!(
                "the smallest value of ({}) among {set}",
                self.value(body, ctx)
            ),
        };
        self.in_aggregate.replace(outer);
        told
    }
}

/// How often an expression names `hole`, not counting the bodies of aggregates inside it
/// (which bind `hole` to their own holes).
fn hole_mentions(n: &Node) -> usize {
    match &n.kind {
        NodeKind::Name(name) => usize::from(name == "hole"),
        NodeKind::Call(f, _, args) => {
            let aggregate = crate::check::typing::AGGREGATES.contains(&f.as_str());
            let read = if aggregate {
                args.get(..1).unwrap_or(args)
            } else {
                args
            };
            read.iter().map(hole_mentions).sum()
        }
        NodeKind::Unary(_, x) => hole_mentions(x),
        NodeKind::Binary(_, a, b) => hole_mentions(a) + hole_mentions(b),
        NodeKind::In(x, items) => hole_mentions(x) + items.iter().map(hole_mentions).sum::<usize>(),
        NodeKind::InSet(h, set) => hole_mentions(h) + hole_mentions(set),
        NodeKind::Number(_) | NodeKind::Text(_) | NodeKind::Bool(_) => 0,
    }
}

/// How tightly an arithmetic operator binds: sums 1, products 2; None for the others.
fn arith_rank(op: BinaryOp) -> Option<u8> {
    match op {
        BinaryOp::Add | BinaryOp::Sub => Some(1),
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => Some(2),
        _ => None,
    }
}

fn is_comparison(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
    )
}

/// A count, told by what it counts, so that `seeds(h) == 0` reads "h is empty",
/// `store(south) >= 25` reads "South holds 25 seeds or more" and `turn_sowings < 3` reads "the
/// mover has made fewer than 3 sowings this turn".
enum Counted {
    /// Seeds in a hole, a row, the board.
    Place(String),
    /// Seeds a player holds.
    Player(String),
    /// Seeds the mover captured in this move.
    Captures,
    /// Sowings the mover has made this turn.
    Sowings,
    /// Seeds in hand, the one about to be sown included (a skip clause's `hand`).
    Hand,
}

impl Counted {
    /// `k` of what is counted: "1 seed", "3 sowings".
    fn amount(&self, k: i64) -> String {
        match self {
            Counted::Sowings if k == 1 => "1 sowing".into(),
            Counted::Sowings => format!("{k} sowings"),
            Counted::Place(_) | Counted::Player(_) | Counted::Captures | Counted::Hand => {
                seeds_word(k)
            }
        }
    }

    /// The sentence around an amount: "South holds {}", "the mover has captured {} in this
    /// move".
    fn sentence(&self, amount: &str) -> String {
        match self {
            Counted::Place(x) | Counted::Player(x) => format!("{x} holds {amount}"),
            Counted::Captures => format!("the mover has captured {amount} in this move"),
            Counted::Sowings => {
                format!("the mover has made {amount} this turn (this one included)")
            }
            Counted::Hand => format!("the sower holds {amount} in hand (this one included)"),
        }
    }

    /// Holds one of several amounts (`x in [2, 3]`).
    fn one_of(&self, items: &[String]) -> String {
        let unit = match self {
            Counted::Sowings => "sowings",
            Counted::Place(_) | Counted::Player(_) | Counted::Captures | Counted::Hand => "seeds",
        };
        self.sentence(&format!("{} {unit}", or_list(items)))
    }

    /// Compared with a number computed from the position: "holds fewer than (2 times 10) seeds".
    fn compared_to(&self, op: BinaryOp, k: &str) -> String {
        let unit = match self {
            Counted::Sowings => "sowings",
            Counted::Place(_) | Counted::Player(_) | Counted::Captures | Counted::Hand => "seeds",
        };
        let amount = match op {
            BinaryOp::Eq => format!("exactly ({k}) {unit}"),
            BinaryOp::Ne => format!("other than ({k}) {unit}"),
            BinaryOp::Gt => format!("more than ({k}) {unit}"),
            BinaryOp::Ge => format!("({k}) {unit} or more"),
            BinaryOp::Lt => format!("fewer than ({k}) {unit}"),
            BinaryOp::Le => format!("at most ({k}) {unit}"),
            other => format!("{} {k}", other.symbol()),
        };
        self.sentence(&amount)
    }

    fn compared(&self, op: BinaryOp, k: i64) -> String {
        let none = match op {
            BinaryOp::Eq | BinaryOp::Le => k == 0,
            BinaryOp::Lt => k == 1,
            _ => false,
        };
        let some = match op {
            BinaryOp::Gt | BinaryOp::Ne => k == 0,
            BinaryOp::Ge => k == 1,
            _ => false,
        };
        let amount = match op {
            BinaryOp::Eq => format!("exactly {}", self.amount(k)),
            BinaryOp::Ne => format!("other than {}", self.amount(k)),
            BinaryOp::Gt => format!("more than {}", self.amount(k)),
            BinaryOp::Ge => format!("{} or more", self.amount(k)),
            BinaryOp::Lt => format!("fewer than {}", self.amount(k)),
            BinaryOp::Le => format!("at most {}", self.amount(k)),
            other => format!("{} {k}", other.symbol()),
        };
        match (self, none, some) {
            (Counted::Place(x), true, _) => format!("{x} is empty"),
            (Counted::Place(x), _, true) => format!("{x} is not empty"),
            (Counted::Player(x), true, _) => format!("{x} holds no seeds"),
            (Counted::Player(x), _, true) => format!("{x} holds seeds"),
            (Counted::Captures, true, _) => "the mover has captured nothing in this move".into(),
            (Counted::Captures, _, true) => "the mover has captured seeds in this move".into(),
            _ => self.sentence(&amount),
        }
    }
}

/// "South's row", "the mover's row", but "the row of the player who just moved"; "side"
/// where a player's holes are not one row (three or four rows, rings, blocks of holes).
fn row_or_side(who: &str, one_row: bool) -> String {
    let word = if one_row { "row" } else { "side" };
    if who.split_whitespace().count() > 2 {
        format!("the {word} of {who}")
    } else {
        format!("{} {word}", possessive(who))
    }
}

fn possessive(who: &str) -> String {
    if who.ends_with('s') {
        format!("{who}'")
    } else {
        format!("{who}'s")
    }
}

fn ordinal(n: usize) -> String {
    match n {
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

fn seeds_word(k: i64) -> String {
    if k == 1 {
        "1 seed".into()
    } else {
        format!("{k} seeds")
    }
}

fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => "nothing".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn join(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

fn moment(m: Moment) -> &'static str {
    match m {
        Moment::Drop => "after every seed dropped",
        Moment::LapEnd => "at the end of each lap, before the relay is decided",
        Moment::MoveEnd => "once the move has ended",
        Moment::Put => "after each seed put in the arrangement before play",
        Moment::Pick => "after each seed picked up in the arrangement before play",
        Moment::RoundEnd => "once the round has ended",
        Moment::RoundStart => "at the start of every round, before its first move",
        Moment::PlayEnd => {
            "once play has ended (the game's, or each round's in a match), before the ending shares out the seeds left: once for each player still in play, in turn order, the mover being that player"
        }
    }
}

/// The options a choice follows, outermost first, and their verb: `the option `a` chooses`,
/// or for a choice within a choice `the options `a` and `b` choose`.
fn choosers<T: ruleset::OptionChoice>(r: &ruleset::OptionRef<T>) -> String {
    fn collect<T: ruleset::OptionChoice>(r: &ruleset::OptionRef<T>, names: &mut Vec<String>) {
        if !names.contains(r.option.get_ref()) {
            names.push(r.option.get_ref().clone());
        }
        for inner in r.map.values().filter_map(T::choice) {
            collect(inner, names);
        }
    }
    let mut names = Vec::new();
    collect(r, &mut names);
    match names.as_slice() {
        [one] => format!("the option `{one}` chooses"),
        [rest @ .., last] => format!(
            "the options {} and `{last}` choose",
            rest.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        [] => String::new(),
    }
}

fn destination(d: Destination) -> &'static str {
    match d {
        Destination::Mover => "to the mover",
        Destination::Opponent => "to the mover's opponent",
        Destination::Owner => "to the owner of the hole they are taken from",
        Destination::Removed => "out of the game (counted as taken by the mover)",
        Destination::PieceHolder => {
            "to the player holding the piece just dropped (to the mover when a seed was dropped)"
        }
        Destination::PieceOwner => {
            "to the player whose piece was just dropped, whoever holds it now (to the mover when a seed was dropped)"
        }
    }
}

fn after(a: After) -> &'static str {
    match a {
        After::Continue => "the move goes on: the relay is decided as usual",
        After::End => "the move ends at once (move-end clauses still run)",
        After::Sow => {
            "the seeds taken are not banked: the mover sows them as the next lap, starting in the hole after the one this lap ended in, and that lap ends like any other"
        }
        After::Relay => {
            "the move goes on by the relay, whatever the relay's condition says: the next lap lifts the hole the relay names if it holds seeds (from the landing hole, the capturing seed moves on), and the mover is not offered to stop there"
        }
    }
}

/// Wraps prose at [`WIDTH`]: the first line after `first`, the others after `rest`.
fn wrap(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::typing::{FUNCTIONS, NAMES, Type};

    const RULESET: &str = "format = 1\nname = \"T\"\n[board]\nrows = 2\nholes = 4\nseeds = 2\n\
        [sowing]\ndirection = \"ccw\"\n[end]\nno_move = { remaining = \"stay\", result = \"draw\" }\n";

    /// An explainer of the test ruleset, for telling single expressions.
    fn explainer(rules: &Rules) -> Explainer<'_> {
        Explainer {
            rules,
            source: RULESET,
            in_aggregate: std::cell::RefCell::new(None),
            in_skip: std::cell::Cell::new(false),
        }
    }

    /// An aggregate whose body joins conditions names its hole once, after the set: "each hole
    /// holds 2 or each hole holds 3" would tell `all(S, a or b)` as `all(S, a) or all(S, b)`.
    /// A filtered set of a player's holes reads without a doubled article.
    #[test]
    fn aggregates_are_told_as_they_read() {
        let rules = crate::check::load(RULESET, &[]).expect("loads").rules;
        let ex = explainer(&rules);
        let tell = |text: &str| ex.cond(&expr::parse(text).expect("parses"), Ctx::Move);
        let joined = tell("all(holes_of(mover), seeds(hole) == 2 or seeds(hole) == 3)");
        assert!(
            joined.starts_with("every hole of the mover's holes is such that (")
                && joined.matches("the hole holds").count() == 2
                && !joined.contains("each of"),
            "{joined}"
        );
        let some = tell("any(holes_of(opponent), not (seeds(hole) > 1))");
        assert!(
            some.starts_with("some hole of the opponent's holes is such that ("),
            "{some}"
        );
        // A body of one condition keeps the shorter reading.
        let single = tell("all(holes_of(mover), seeds(hole) in [2, 3])");
        assert!(single.starts_with("each of the mover's holes "), "{single}");
        let twice = tell("all(holes_of(mover), seeds(hole) > number(hole))");
        assert!(
            twice.starts_with("every hole of the mover's holes is such that ("),
            "{twice}"
        );
        let size = tell("count(holes_of(mover), true) == 0");
        assert!(!size.contains("where"), "{size}");
        let filtered =
            tell("count(filter(holes_of(mover), number(hole) > 2), seeds(hole) == 0) > 0");
        assert!(!filtered.contains("the the"), "{filtered}");
    }

    /// Every name and function of the language reads as English: none is shown as written.
    #[test]
    fn every_name_and_function_is_told_in_english() {
        let rules = crate::check::load(RULESET, &[]).expect("loads").rules;
        let ex = explainer(&rules);
        let arg = |t: &Type| match t {
            Type::Hole => "last",
            Type::Player => "mover",
            Type::Set => "holes_of(opponent)",
            Type::Bool => "seeds(hole) == 0",
            _ => "seeds(hole)",
        };
        let mut texts: Vec<(String, String)> = Vec::new();
        for n in NAMES {
            let node = expr::parse(n.name).expect("parses");
            texts.push((n.name.into(), ex.value(&node, Ctx::Move)));
            texts.push((n.name.into(), ex.cond(&node, Ctx::Move)));
        }
        for f in FUNCTIONS {
            let args: Vec<&str> = f.args.iter().map(arg).collect();
            let text = format!("{}({})", f.name, args.join(", "));
            let node = expr::parse(&text).expect("parses");
            texts.push((text.clone(), ex.value(&node, Ctx::Move)));
            texts.push((text.clone(), ex.cond(&node, Ctx::Move)));
            // Also inside a comparison, where counts are told by what they count.
            if f.ty == Type::Number {
                let cmp = format!("{text} < 3");
                let node = expr::parse(&cmp).expect("parses");
                texts.push((cmp, ex.cond(&node, Ctx::Move)));
            }
        }
        for (written, english) in texts {
            let raw = FUNCTIONS
                .iter()
                .any(|f| english.contains(&format!("{}(", f.name)));
            assert!(
                !raw && !english.contains('`') && !english.contains('_'),
                "`{written}` is told as \"{english}\""
            );
        }
    }
}
