//! The expression parser, then the type checker: any text as one expression, parsed alone and
//! then placed in a capture clause of a small ruleset and loaded. Neither may panic, and every
//! error must point inside the text it was given.
#![no_main]

use libfuzzer_sys::fuzz_target;

const TEMPLATE_HEAD: &str = r#"format = 1
name = "fuzz"
[board]
rows = 2
holes = 6
seeds = 4
[sowing]
direction = "ccw"
[options.o]
values = ["a", "b"]
default = "a"
[[capture]]
name = "c"
at = "lap_end"
when = '''
"#;
const TEMPLATE_TAIL: &str = r#"'''
take = ['opposite(last)']
[end]
no_move = { remaining = "owners", result = "most_seeds" }
"#;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = sow::expr::parse(text) {
        assert!(e.span.start <= e.span.end && e.span.end <= text.len(), "{e:?} in {text:?}");
    }
    if text.contains("'''") || text.ends_with('\'') || text.contains('\r') {
        return;
    }
    let source = format!("{TEMPLATE_HEAD}{text}{TEMPLATE_TAIL}");
    if let Err(diags) = sow::check::load(&source, &[]) {
        for d in &diags {
            if let Some(s) = &d.span {
                assert!(s.start <= s.end && s.end <= source.len(), "{d:?}");
            }
            let _ = sow::diagnostic::render(d, "fuzz.toml", &source, false);
        }
    }
});
