//! `sow lsp`: a language server for ruleset files over stdio (lsp-server, the scaffold
//! rust-analyzer runs on). It publishes `sow check`'s diagnostics as the author types and
//! answers hovers and completions; what it says comes from [`sow::lsp`].

use std::collections::HashMap;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lsp;
use serde_json::Value;

use super::{Exit, Fail};

/// Run a language server for ruleset files on stdin and stdout.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The server speaks the Language Server Protocol on stdin and stdout: start it from an editor,
for files ending in .toml that are rulesets (README, Editors, has the set-up for VS Code,
Neovim and Helix). It publishes the diagnostics of `sow check` as the file changes, and gives
hover help and completion for keys, values, and the names, functions and options inside
expressions.")]
pub struct Args {
    /// Accepted for editors that pass it; stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,
}

pub fn run(_args: Args) -> Result<Exit, Fail> {
    let (connection, threads) = Connection::stdio();
    let result = serve(&connection);
    drop(connection);
    let joined = threads.join();
    result?;
    joined
        .map_err(|e| Fail::Usage(format!("the language server's input or output failed: {e}")))?;
    Ok(Exit::Ok)
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(
            lsp::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(
                [".", "[", "\"", "'", "(", " ", "="]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn serve(connection: &Connection) -> Result<(), Fail> {
    let caps = serde_json::to_value(capabilities())
        .map_err(|e| Fail::Usage(format!("cannot describe the server: {e}")))?;
    let info = serde_json::json!({
        "capabilities": caps,
        "serverInfo": { "name": "sow", "version": env!("CARGO_PKG_VERSION") },
    });
    let (id, _params) = connection
        .initialize_start()
        .map_err(|e| Fail::Usage(format!("the editor did not start the protocol: {e}")))?;
    connection
        .initialize_finish(id, info)
        .map_err(|e| Fail::Usage(format!("the editor did not start the protocol: {e}")))?;
    let mut documents: HashMap<String, String> = HashMap::new();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| Fail::Usage(format!("protocol error: {e}")))?
                {
                    return Ok(());
                }
                let response = answer(&documents, request);
                send(connection, Message::Response(response));
            }
            Message::Notification(n) => {
                if let Some(uri) = changed(&mut documents, n)
                    && let Some(text) = documents.get(&uri)
                {
                    publish(connection, &uri, text);
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn send(connection: &Connection, message: Message) {
    // A closed channel means the editor has gone; the loop ends with the input.
    let _ = connection.sender.send(message);
}

/// Applies an open, change or close; returns the document whose text changed.
fn changed(documents: &mut HashMap<String, String>, n: Notification) -> Option<String> {
    match n.method.as_str() {
        "textDocument/didOpen" => {
            let p: lsp::DidOpenTextDocumentParams = serde_json::from_value(n.params).ok()?;
            let uri = p.text_document.uri.to_string();
            documents.insert(uri.clone(), p.text_document.text);
            Some(uri)
        }
        "textDocument/didChange" => {
            let p: lsp::DidChangeTextDocumentParams = serde_json::from_value(n.params).ok()?;
            let uri = p.text_document.uri.to_string();
            // Full sync: the last change holds the whole text.
            let text = p.content_changes.into_iter().last()?.text;
            documents.insert(uri.clone(), text);
            Some(uri)
        }
        "textDocument/didClose" => {
            let p: lsp::DidCloseTextDocumentParams = serde_json::from_value(n.params).ok()?;
            documents.remove(&p.text_document.uri.to_string());
            None
        }
        _ => None,
    }
}

fn publish(connection: &Connection, uri: &str, text: &str) {
    let Ok(parsed) = uri.parse::<lsp::Uri>() else {
        return;
    };
    let params = lsp::PublishDiagnosticsParams {
        uri: parsed.clone(),
        diagnostics: sow::lsp::diagnostics(&parsed, text),
        version: None,
    };
    if let Ok(params) = serde_json::to_value(params) {
        send(
            connection,
            Message::Notification(Notification::new(
                "textDocument/publishDiagnostics".into(),
                params,
            )),
        );
    }
}

fn answer(documents: &HashMap<String, String>, request: Request) -> Response {
    let Request { id, method, params } = request;
    let result: Option<Value> = match method.as_str() {
        "textDocument/hover" => serde_json::from_value::<lsp::HoverParams>(params)
            .ok()
            .and_then(|p| {
                let doc = &p.text_document_position_params;
                let text = documents.get(&doc.text_document.uri.to_string())?;
                sow::lsp::hover(text, doc.position)
            })
            .and_then(|h| serde_json::to_value(h).ok()),
        "textDocument/completion" => serde_json::from_value::<lsp::CompletionParams>(params)
            .ok()
            .and_then(|p| {
                let doc = &p.text_document_position;
                let text = documents.get(&doc.text_document.uri.to_string())?;
                serde_json::to_value(sow::lsp::completion(text, doc.position)).ok()
            }),
        _ => {
            return Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("sow lsp does not answer {method}"),
            );
        }
    };
    Response::new_ok(id, result.unwrap_or(Value::Null))
}
