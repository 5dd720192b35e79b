//! `vgc openapi --format jsonschema` (issue 39, `docs/openapi.md` "JSON Schema"): the analysis and OpenAPI
//! backend of `vgc openapi` ([`crate::openapi::analyse`]), then the component schemas — vgc's own, or with
//! `--merge` those of the merged spec files — said in JSON Schema for kubeconform ([`vgc_openapi::jsonschema`]) and
//! written into the output directory as one transaction ([`crate::output::publish`]).

use crate::openapi::{OpenApiOutcome, OpenApiRequest};
use serde_json::Value;
use std::collections::BTreeMap;
use vgc_openapi::jsonschema::{JsonSchemas, Kind, json_schemas, kinds_of_plan, kinds_of_spec};

/// The ownership record of the JSON Schema files in `.vgc/`.
const RECORD: &str = "jsonschema-outputs";

/// The result of `vgc openapi --format jsonschema`.
#[derive(Debug, Default)]
pub struct JsonSchemaOutcome {
    /// The analysis and the OpenAPI backend's output, as `vgc openapi` reports them (`files` are the JSON Schema
    /// files written; `merge` the merge's summary with `--merge`).
    pub openapi: OpenApiOutcome,
    /// The JSON Schema files and what they could not state (`None` when the analysis had errors or reading the
    /// spec directory failed).
    pub schemas: Option<JsonSchemas>,
}

/// Runs `vgc openapi --format jsonschema` (see the module docs). Nothing is written when the analysis reports an
/// error; a spec directory that cannot be read or a write that fails is `openapi.io_error`.
#[must_use]
pub fn jsonschema(req: &OpenApiRequest) -> JsonSchemaOutcome {
    let (mut out, generated) = crate::openapi::analyse(req);
    let Some(generated) = generated else {
        return JsonSchemaOutcome {
            openapi: out,
            schemas: None,
        };
    };
    let (components, kinds) = match &req.merge {
        None => (
            generated.schemas.clone(),
            kinds_of_plan(&out.build.plan, &generated),
        ),
        Some(dir) => {
            let read = crate::openapi::merge_dir(dir, &generated).and_then(|(files, summary)| {
                out.merge = Some(summary);
                spec_components(&files)
            });
            match read {
                Ok(c) => c,
                Err(e) => {
                    out.io_error = Some(e);
                    out.output = Some(generated);
                    return JsonSchemaOutcome {
                        openapi: out,
                        schemas: None,
                    };
                }
            }
        }
    };
    let schemas = json_schemas(&components, &kinds);
    out.notes.extend(schemas.notes.iter().cloned());
    let files: Result<Vec<(String, Vec<u8>)>, String> = schemas
        .files
        .iter()
        .map(|f| {
            let mut b = serde_json::to_vec_pretty(&f.json).map_err(|e| e.to_string())?;
            b.push(b'\n');
            Ok((f.path.clone(), b))
        })
        .collect();
    match files {
        Err(e) => out.io_error = Some(e),
        Ok(files) => {
            if let Err(e) = std::fs::create_dir_all(&req.out) {
                out.io_error = Some(format!("{}: {e}", req.out.display()));
            } else {
                match crate::output::publish(&req.out, RECORD, &files, req.force) {
                    Ok(notes) => out.notes.extend(notes),
                    Err(e) => out.io_error = Some(e),
                }
                out.files = files.into_iter().map(|(f, _)| f).collect();
            }
        }
    }
    out.output = Some(generated);
    JsonSchemaOutcome {
        openapi: out,
        schemas: Some(schemas),
    }
}

/// The component schemas of the merged spec files (by name; a name in several files holds the same schema) and
/// the kinds they declare (`x-kubernetes-group-version-kind`).
fn spec_components(
    files: &[(String, Vec<u8>)],
) -> Result<(BTreeMap<String, Value>, Vec<Kind>), String> {
    let mut components = serde_json::Map::new();
    for (name, bytes) in files {
        let doc: Value =
            serde_json::from_slice(bytes).map_err(|e| format!("{name}: not JSON: {e}"))?;
        if let Some(Value::Object(s)) = doc.get("components").and_then(|c| c.get("schemas")) {
            for (k, v) in s {
                components.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    let mut kinds = kinds_of_spec(&components);
    kinds.dedup();
    Ok((components.into_iter().collect(), kinds))
}
