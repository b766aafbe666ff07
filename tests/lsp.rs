//! `sow lsp` through the protocol: the test starts the server, opens a ruleset, edits it, and
//! reads the diagnostics it publishes, its hovers and its completions, as an editor would.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

struct Server {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

fn read_message(out: &mut BufReader<ChildStdout>) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    out.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("sow lsp starts");
        let input = child.stdin.take().expect("stdin");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let (send, messages) = channel();
        std::thread::spawn(move || {
            while let Some(m) = read_message(&mut out) {
                if send.send(m).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            input,
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("sent");
        self.input.flush().expect("flushed");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its answer, setting aside notifications.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.receive();
            if m["id"] == id {
                return m;
            }
        }
    }

    fn receive(&self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers")
    }

    /// The next diagnostics published.
    fn diagnostics(&self) -> Vec<Value> {
        loop {
            let m = self.receive();
            if m["method"] == "textDocument/publishDiagnostics" {
                return m["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
        }
    }
}

const URI: &str = "file:///tmp/my_game.toml";

const TEXT: &str = "\
format = 1
name = \"My game\"

[board]
rows = 2
hole = 5
seeds = 3

[sowing]
direction = \"ccw\"

[[capture]]
name = \"take opposite\"
at = \"move_end\"
when = 'own(last) and seeds(lats) == 1 and option.big == \"yes\"'
take = ['opposite(last)']
to = \"mover\"

[end]
no_move = { remaining = \"stay\", result = \"mover_loses\" }

[options.big]
question = \"Are big captures taken?\"
values = [\"yes\", \"no\"]
default = \"yes\"
why = \"The sources say so.\"
";

fn at(line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
}

fn labels(items: &Value) -> Vec<String> {
    items
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["label"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_language_server_checks_explains_and_completes() {
    let mut server = Server::start();
    let init = server.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    assert_eq!(
        init["result"]["capabilities"]["hoverProvider"], true,
        "{init}"
    );
    server.notify("initialized", json!({}));

    // Opened: the diagnostics of `sow check`, structural and inside the expression.
    server.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "toml", "version": 1, "text": TEXT } }),
    );
    let diags = server.diagnostics();
    let codes: Vec<&str> = diags.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["E0003", "E0306"], "{diags:?}");
    assert_eq!(
        diags[0]["range"]["start"],
        json!({ "line": 5, "character": 0 })
    );
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("Did you mean `holes`?")
    );
    assert_eq!(
        diags[1]["range"]["start"],
        json!({ "line": 14, "character": 28 })
    );
    assert_eq!(diags[1]["severity"], 1);

    // Edited: the key fixed, the name fixed, a word misspelt.
    let edited = TEXT
        .replace("hole = 5", "holes = 5")
        .replace("seeds(lats)", "seeds(last)")
        .replace("\"mover_loses\"", "\"mover_lose\"");
    server.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": edited }] }),
    );
    let diags = server.diagnostics();
    let codes: Vec<&str> = diags.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["E0005"], "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 19);

    let fixed = edited.replace("\"mover_lose\"", "\"mover_loses\"");
    server.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 3 }, "contentChanges": [{ "text": fixed }] }),
    );
    assert!(server.diagnostics().is_empty(), "a clean ruleset has none");

    // Hovers: a key (its doc comment), a function and an option inside an expression.
    let hover = |server: &mut Server, line, character| {
        let r = server.request("textDocument/hover", at(line, character));
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let key = hover(&mut server, 5, 2);
    assert!(key.contains("Holes in each row"), "{key}");
    let function = hover(&mut server, 14, 22);
    assert!(
        function.contains("seeds(hole)") && function.contains("seeds in a hole"),
        "{function}"
    );
    let option = hover(&mut server, 14, 47);
    assert!(option.contains("Are big captures taken?"), "{option}");
    let word = hover(&mut server, 9, 14);
    assert!(word.contains("Counter-clockwise"), "{word}");

    // Completions: keys of the table, the words of a value, names and functions in an
    // expression, an option's values.
    let r = server.request("textDocument/completion", at(6, 0));
    let keys = labels(&r["result"]);
    for k in ["rows", "holes", "seeds", "stores", "store_side"] {
        assert!(keys.contains(&k.to_string()), "{keys:?}");
    }
    let r = server.request("textDocument/completion", at(9, 13));
    assert_eq!(labels(&r["result"]), ["ccw", "cw"]);
    let r = server.request("textDocument/completion", at(14, 8));
    let names = labels(&r["result"]);
    for n in ["last", "mover", "seeds", "opposite", "option.big"] {
        assert!(names.contains(&n.to_string()), "{names:?}");
    }
    let line = fixed.lines().nth(14).unwrap_or("");
    let quote = line.rfind("\"yes").map_or(0, |i| i + 1);
    let r = server.request("textDocument/completion", at(14, quote as u32));
    assert_eq!(labels(&r["result"]), ["yes", "no"]);

    let r = server.request("shutdown", Value::Null);
    assert!(r.get("error").is_none(), "{r}");
    server.notify("exit", Value::Null);
    let status = server.child.wait().expect("the server ends");
    assert!(status.success(), "{status}");
}
