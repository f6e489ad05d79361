//! The MCP server's resources: the index (`memdir://memory/MEMORY.md`) and each topic file
//! (`memdir://memory/<name>.md`) of the server's memory dir, read as `list` and `show` read them
//! (regular files inside the dir, capped; a file that cannot be read is left out of the list).

use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents};

use crate::cli::mcp::{Server, captured, clip};
use crate::memory::catalog::{list_memories, read_index_lossy, read_memory};
use crate::memory::store::INDEX_FILE;

const PREFIX: &str = "memdir://memory/";
const MARKDOWN: &str = "text/markdown";

/// The server's memory dir, resolved as a command resolves it; its warnings are dropped (a
/// resource has nowhere to show them), its error is the client's.
fn memory_dir(server: &Server) -> Result<std::path::PathBuf, ErrorData> {
    let ctx = server.ctx(None);
    let mut dir = None;
    captured(|output| {
        dir = Some(ctx.resolve(output)?.location.dir);
        Ok(())
    })
    .map_err(|message| ErrorData::internal_error(message, None))?;
    dir.ok_or_else(|| ErrorData::internal_error("no memory dir", None))
}

/// Resources per page of `resources/list`: a store of 10,000 memories is one page of megabytes
/// otherwise.
const PAGE: usize = 500;

/// One page of the resources, from `cursor` (the offset the previous page gave), and the cursor
/// of the next page when there is one.
pub fn list(
    server: &Server,
    cursor: Option<&str>,
) -> Result<(Vec<Resource>, Option<String>), ErrorData> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor.parse::<usize>().map_err(|_| {
            ErrorData::invalid_params(
                format!("cursor {:?} is not one resources/list gave", clip(cursor)),
                None,
            )
        })?,
    };
    let all = every(server)?;
    let next = (start + PAGE < all.len()).then(|| (start + PAGE).to_string());
    Ok((all.into_iter().skip(start).take(PAGE).collect(), next))
}

/// The index, then each memory that can be read, in index order.
fn every(server: &Server) -> Result<Vec<Resource>, ErrorData> {
    let dir = memory_dir(server)?;
    let listing = list_memories(&dir).map_err(|e| internal(&e))?;
    let mut resources = vec![
        Resource::new(format!("{PREFIX}{INDEX_FILE}"), INDEX_FILE)
            .with_title("Memory index")
            .with_description("The index Claude Code loads into every session: one line per memory")
            .with_mime_type(MARKDOWN),
    ];
    resources.extend(listing.memories.into_iter().map(|memory| {
        let mut resource = Resource::new(format!("{PREFIX}{}", memory.file), memory.name.clone())
            .with_mime_type(MARKDOWN);
        if let Some(title) = memory.title {
            resource = resource.with_title(title);
        }
        if let Some(description) = memory.description {
            resource = resource.with_description(description);
        }
        resource
    }));
    Ok(resources)
}

pub fn read(server: &Server, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let not_found = || {
        ErrorData::resource_not_found(
            format!("no resource {:?}: see resources/list", clip(uri)),
            None,
        )
    };
    let file = uri.strip_prefix(PREFIX).ok_or_else(not_found)?;
    let dir = memory_dir(server)?;
    let text = if file == INDEX_FILE {
        read_index_lossy(&dir, &mut Vec::new()).map_err(|e| internal(&e))?
    } else {
        let name = file.strip_suffix(".md").ok_or_else(not_found)?;
        match read_memory(&dir, name) {
            Ok((_, text, _)) => text,
            Err(e) if e.is_invalid_input() => return Err(not_found()),
            Err(e) => return Err(internal(&e)),
        }
    };
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type(MARKDOWN),
    ]))
}

/// The memory index as an agent that does not load it itself should see it at the start of a
/// session: loaded as Claude Code loads it, its tags neutralised as the recall hooks' are (the
/// index is text an agent, a teammate or a repository wrote), under a line saying what it is;
/// `None` when there is no index, or it cannot be read (the server starts all the same).
pub fn index_for_instructions(server: &Server) -> Option<String> {
    let dir = memory_dir(server).ok()?;
    let raw = read_index_lossy(&dir, &mut Vec::new()).ok()?;
    if raw.trim().is_empty() {
        return None;
    }
    let index = crate::stack::neutralize::neutralize_tags(
        &crate::memory::load::load_index_for_context(&raw),
    );
    Some(format!(
        "This project's memory index ({}; one line per memory, each `show`-able by its name; \
         it may be out of date: `search` before relying on a memory):\n\n{index}",
        dir.join(INDEX_FILE).display()
    ))
}

fn internal(e: &dyn std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(clip(&e.to_string()).into_owned(), None)
}
