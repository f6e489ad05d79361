//! `memdir mcp`: the memory dir as an MCP server over stdio (DESIGN §13), on the official Rust SDK
//! (`rmcp`). A tool call runs the same code as the command it is named after, in this process
//! ([`tools`]); the index and each topic file are resources ([`resources`]).
//!
//! Whoever speaks to the server (an agent, or a program acting as one) controls every argument:
//! an argument of the wrong type, a missing or unknown field, a bad name or an oversized body is
//! a tool error naming the field, nothing changes, and the server keeps serving.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, DiscoverResult,
    Implementation, InitializeRequestParams, InitializeResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::Error;
use crate::cli::{Ctx, GlobalArgs, Output};
use crate::env::Environment;

mod resources;
mod tools;

/// Serve this project's memory to an MCP client over stdin and stdout (for Cursor, Codex, Gemini
/// CLI, Claude Code or any agent that speaks MCP).
///
/// Tools: search, list, show, save, remove, log, diff, restore and review. Every write is the
/// same two-step save and one commit as the command line's, under the same lock, with the
/// client's session as its `Memdir-Session` trailer (Claude Code's session id when it starts the
/// server, else one id per connection). Resources: `memdir://memory/MEMORY.md` and each topic
/// file. The project is the server's working directory unless --project, or a tool's `project`
/// argument, says otherwise.
///
/// Claude Code: `claude mcp add memdir -- memdir mcp`, or the plugin in `plugin/`.
#[derive(Debug, clap::Args)]
pub struct McpArgs {}

pub fn run(ctx: &Ctx, _args: &McpArgs, output: &mut Output<'_>) -> Result<(), Error> {
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        output.warn(
            "memdir mcp speaks MCP (JSON-RPC) on stdin and stdout: an MCP client starts it \
             (README, \"Any agent: the MCP server\"); waiting for one on this terminal, ^D ends",
        )?;
    }
    let server = Server::new(ctx.env.clone(), ctx.global.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|source| Error::Io {
            context: "starting the MCP server".into(),
            source,
        })?;
    let served: Result<(), String> = runtime.block_on(async {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| e.to_string())?;
        running.waiting().await.map_err(|e| e.to_string())?;
        Ok(())
    });
    // The client closing stdin ends the session: that is how an MCP client stops a server.
    if let Err(e) = served {
        output.warn(&format!("the MCP session ended: {e}"))?;
    }
    Ok(())
}

/// The name Claude Code gives itself as an MCP client.
const CLAUDE_CODE: &str = "claude-code";

/// The server: where memory lives for it (the command line's global flags), and the session id
/// its writes carry.
pub struct Server {
    env: Environment,
    global: GlobalArgs,
    session: std::sync::OnceLock<String>,
}

impl Server {
    pub fn new(env: Environment, global: GlobalArgs) -> Server {
        Server {
            env,
            global,
            session: std::sync::OnceLock::new(),
        }
    }

    /// The command-line context a call runs in: the server's, with the call's `project`.
    fn ctx(&self, project: Option<&std::path::Path>) -> Ctx {
        let mut global = self.global.clone();
        if let Some(project) = project {
            global.project = Some(crate::paths::absolute_from(&self.env.cwd, project));
        }
        Ctx {
            env: self.env.clone(),
            global,
        }
    }

    /// The `Memdir-Session` of this connection's writes: Claude Code's session id when Claude Code
    /// started the server (it passes `CLAUDE_CODE_SESSION_ID`), else `mcp-<client>-<pid>`, one per
    /// connection, so that `log --session` finds what one client wrote.
    fn session(&self, client: Option<&str>) -> &str {
        self.session.get_or_init(|| {
            if let Some(id) = self.env.var_str("CLAUDE_CODE_SESSION_ID")
                && crate::cli::validate_session(Some(&id)).is_ok()
            {
                return id;
            }
            let client: String = client
                .unwrap_or("client")
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                .take(40)
                .collect();
            let client = if client.is_empty() { "client" } else { &client };
            format!("mcp-{client}-{}", std::process::id())
        })
    }

    /// The instructions for `client`: what memdir is for, and the memory index for a client
    /// that does not load it itself.
    fn instructions_for(&self, client: Option<&str>) -> Option<String> {
        let instructions = self.get_info().instructions?;
        if client == Some(CLAUDE_CODE) {
            return Some(instructions);
        }
        match resources::index_for_instructions(self) {
            Some(index) => Some(format!("{instructions}\n\n{index}")),
            None => Some(instructions),
        }
    }
}

/// The name the client gave itself: in this request's `_meta` (protocol 2026-07-28), else in
/// the `initialize` handshake.
fn client_name(context: &RequestContext<RoleServer>) -> Option<String> {
    context
        .meta
        .client_info()
        .map(|info| info.name)
        .or_else(|| {
            let info = context.peer.peer_info()?;
            Some(info.client_info.name.clone())
        })
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("memdir", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "memdir is this project's durable memory (Claude Code's auto-memory layout, \
             versioned in git). Search it before answering from assumptions; save what the user \
             says is worth remembering across sessions (their role, feedback on how to work, \
             project facts not derivable from the code, where to find things) with save; \
             never save secrets or what the repository already says.",
        )
    }

    /// Claude Code loads the memory index into every session itself; other agents (Cursor,
    /// Codex, Gemini CLI, …) do not, so for them the server's instructions carry it, loaded as
    /// Claude Code loads it (its first 200 lines and 25,000 characters). A client names itself in
    /// the `initialize` handshake, or (protocol 2026-07-28, Claude Code 2.1.332) in each
    /// request's `_meta`, starting with `server/discover`.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = self.instructions_for(Some(&request.client_info.name));
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut result = DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        );
        result.instructions = self.instructions_for(client_name(&context).as_deref());
        Ok(result)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let client = client_name(&context);
        let session = self.session(client.as_deref()).to_string();
        // A bug that panics in one call is that call's error; the server goes on serving.
        let called = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::fault::panic_point("panic-in-tool");
            tools::call(self, &session, &request.name, request.arguments)
        }));
        let result = match called {
            Ok(Ok(text)) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Ok(Err(message)) => CallToolResult::error(vec![ContentBlock::text(message)]),
            Err(_) => CallToolResult::error(vec![ContentBlock::text(format!(
                "error: memdir failed inside the {:?} tool (a bug: please report it); what it \
                 was writing, if anything, is left as a crash leaves it (memdir doctor)",
                clip(&request.name)
            ))]),
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        let (page, next) = resources::list(self, cursor)?;
        let mut result = ListResourcesResult::with_all_items(page);
        result.next_cursor = next;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(self, &request.uri).map(Into::into)
    }
}

/// A command's output captured for a client: what it printed, then its warnings; or its error
/// with the hints the command line would print.
fn captured(run: impl FnOnce(&mut Output<'_>) -> Result<(), Error>) -> Result<String, String> {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut output = Output {
        out: &mut out,
        err: &mut err,
        quiet: false,
        verbose: true,
        progress: false,
        terminal: false,
        color: false,
        err_color: false,
    };
    let result = run(&mut output);
    let mut text = String::from_utf8_lossy(&out).into_owned();
    text.push_str(&String::from_utf8_lossy(&err));
    match result {
        // No hit is an answer for a client, not a failure.
        Ok(()) | Err(Error::Verdict(_)) => Ok(text),
        Err(e) => Err(clip(&format!("{text}{}", e.report())).into_owned()),
    }
}

/// At most [`MAX_MESSAGE_CHARS`] of `text`: what a client sent may be quoted in an error, and a
/// 10 MB name must not come back as a 10 MB message.
pub(crate) fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => std::borrow::Cow::Borrowed(text),
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..end])),
    }
}

const MAX_MESSAGE_CHARS: usize = 2000;
