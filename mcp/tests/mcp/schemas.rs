//! The tool list teaches what an argument means without a second read: the
//! columns `fields` takes, what `max_wait_s` does, and what each value of an
//! enum parameter means, from the spec.

use serde_json::Value;

use crate::support::Mcp;

/// The row names of a tool's output schema (its `response` rows' members).
fn row_names(tool: &Value) -> Vec<Value> {
    let response = &tool["outputSchema"]["properties"]["response"];
    [
        &response["items"],
        &response["additionalProperties"],
        &response["anyOf"][0],
    ]
    .into_iter()
    .find_map(|row| row["properties"].as_object())
    .map(|p| p.keys().map(|k| Value::String(k.clone())).collect())
    .unwrap_or_default()
}

fn description(schema: &Value) -> &str {
    schema["description"].as_str().unwrap_or_default()
}

#[test]
fn fields_list_the_columns_and_every_enum_value_is_explained() {
    let mut mcp = Mcp::start(&["--sandbox", "mcp"]);
    let tools = mcp.tools();
    let (mut with_fields, mut operations) = (0, 0);
    for tool in tools
        .iter()
        .filter(|t| t["annotations"]["openWorldHint"] == true)
    {
        operations += 1;
        let name = &tool["name"];
        let properties = tool["inputSchema"]["properties"]
            .as_object()
            .expect("properties");
        let wait = &properties["max_wait_s"];
        assert!(description(wait).contains("seconds"), "{name}: {wait}");
        if let Some(fields) = properties.get("fields") {
            with_fields += 1;
            assert!(!description(fields).is_empty(), "{name}: {fields}");
            // The columns to pick from, and any other name (a member the
            // spec does not know) let through.
            let choices = &fields["items"]["anyOf"];
            assert_eq!(
                choices[0]["enum"].as_array().cloned().unwrap_or_default(),
                row_names(tool),
                "{name}: {fields}"
            );
            assert_eq!(choices[1]["type"], "string", "{name}: {fields}");
        }
        for (param, schema) in properties {
            let values = schema["enum"]
                .as_array()
                .or_else(|| schema["items"]["enum"].as_array());
            for value in values.into_iter().flatten() {
                let value = value.as_str().expect("a text value");
                assert!(
                    description(schema).contains(&format!("`{value}` ")),
                    "{name} {param}: `{value}` not explained in {schema}"
                );
            }
        }
    }
    assert_eq!(operations, seozoom::operations::OPERATIONS.len());
    assert!(
        with_fields >= operations - 2,
        "{with_fields} of {operations}"
    );
    let keywords = tools
        .iter()
        .find(|t| t["name"] == "domains_keywords")
        .expect("domains_keywords");
    let kind = description(&keywords["inputSchema"]["properties"]["type"]);
    assert!(
        kind.contains("`withtraffic` Only keywords bringing traffic;")
            && kind.contains("`newentry` Keywords that entered the results in the last 10 days"),
        "{kind}"
    );
    mcp.finish();
}
