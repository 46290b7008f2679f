//! Where each published file goes, relative to the published directory
//! (`/`-separated).

pub fn record_path(name: &str) -> String {
    format!("schemas/records/{name}.schema.json")
}

pub fn action_path(group: &str, action: &str) -> String {
    format!("schemas/actions/{group}.{action}.schema.json")
}

pub fn query_path(group: &str, action: &str) -> String {
    format!("schemas/queries/{group}.{action}.schema.json")
}

pub fn document_path(group: &str, action: &str) -> String {
    format!("actions/{group}.{action}.openapi.json")
}
