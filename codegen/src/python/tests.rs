use super::*;

fn spec() -> Spec {
    crate::load_str(
        "seozoom-v2.toml",
        include_str!("../../../spec/seozoom-v2.toml"),
    )
    .expect("the workspace's spec is valid")
}

#[test]
fn every_action_is_a_method_of_its_group_in_both_files() {
    let spec = spec();
    let python = emit(&spec).unwrap();
    for a in &spec.actions {
        let call = format!("return self._call({:?}, {:?}, ", a.group, a.wire);
        assert!(python.module.contains(&call), "{} {}", a.group, a.wire);
        let def = format!("    def {}(\n", a.rust);
        let async_def = format!("    async def {}(\n", a.rust);
        assert!(python.stub.contains(&def), "{}", a.rust);
        assert!(python.stub.contains(&async_def), "{}", a.rust);
    }
    for r in &spec.records {
        let class = format!("class {}(TypedDict):", r.type_name);
        assert!(python.module.contains(&class) && python.stub.contains(&class));
    }
}

#[test]
fn the_output_is_deterministic() {
    let spec = spec();
    assert_eq!(emit(&spec).unwrap(), emit(&spec).unwrap());
}

#[test]
fn required_parameters_come_first_and_optional_ones_are_keyword_only() {
    let python = emit(&spec()).unwrap();
    let group = python
        .stub
        .find("class Domains:")
        .expect("the domains group");
    let start = group
        + python.stub[group..]
            .find("    def keywords(\n")
            .expect("domains keywords");
    let signature = &python.stub[start..start + python.stub[start..].find("):").unwrap()];
    let star = signature.find("        *,").expect("keyword-only marker");
    assert!(signature.find("domain: str").unwrap() < star);
    assert!(signature.find("keyword_type: KeywordType").unwrap() < star);
    assert!(signature.find("offset: Optional[int] = None").unwrap() > star);
    assert!(signature.contains("max_rows: Optional[int] = None"));
}

#[test]
fn python_keywords_get_a_trailing_underscore_and_reserved_names_are_refused() {
    assert_eq!(names::ident("from"), "from_");
    assert_eq!(names::ident("keyword_type"), "keyword_type");
    let mut spec = spec();
    let param = spec.actions[0].params.iter_mut().find(|p| !p.implicit);
    if let Some(param) = param {
        param.rust = "max_rows".into();
        let error = emit(&spec).unwrap_err();
        assert!(error.contains("max_rows"), "{error}");
    }
}

#[test]
fn monthly_volumes_are_listed_in_calendar_order() {
    let python = emit(&spec()).unwrap();
    let line = python
        .module
        .lines()
        .find(|l| l.trim_start().starts_with("\"KeywordMetrics\": ("))
        .expect("keyword metrics have monthly volumes");
    let jan = line.find("\"jan\"").unwrap();
    let dec = line.find("\"dec\"").unwrap();
    assert!(jan < dec, "{line}");
}

#[test]
fn every_action_has_its_typed_result_in_the_dispatch() {
    let spec = spec();
    let python = emit(&spec).unwrap();
    for a in &spec.actions {
        let arm = format!("(\"{}\" , \"{}\") =>", a.group, a.wire);
        assert!(python.dispatch.contains(&arm), "{} {}", a.group, a.wire);
    }
    // The rows of a list of records are handed over by their record type.
    assert!(
        python
            .dispatch
            .contains("visit . rows :: < :: seozoom :: types :: DomainKeyword > ()")
    );
}

#[test]
fn the_async_groups_are_coroutine_functions_that_await_the_call_in_their_body() {
    let spec = spec();
    let python = emit(&spec).unwrap();
    for g in &spec.groups {
        let class = format!("class Async{}(_Group):", g.type_name);
        let start = python.module.find(&class).expect("the async group");
        let end = python.module[start + 1..]
            .find("\nclass ")
            .map_or(python.module.len(), |e| start + 1 + e);
        let body = &python.module[start..end];
        for a in spec.actions.iter().filter(|a| a.group == g.wire) {
            assert!(
                body.contains(&format!("    async def {}(\n", a.rust)),
                "{}",
                a.rust
            );
            let call = format!("return await self._call({:?}, {:?}, ", a.group, a.wire);
            assert!(body.contains(&call), "{}", a.rust);
        }
        assert!(!body.contains("    def "), "a plain method in {class}");
    }
}

#[test]
fn the_clients_type_db_and_estimate_as_literals_and_show_their_groups() {
    let spec = spec();
    let python = emit(&spec).unwrap();
    let crate::model::ParamType::Enum { type_name, .. } = &spec.common.database.ty else {
        panic!("the database is an enum");
    };
    for file in [&python.module, &python.stub] {
        assert!(file.contains(&format!("class Client(ClientBase[{type_name}]):")));
        assert!(file.contains(&format!("class AsyncClient(AsyncClientBase[{type_name}]):")));
        for g in &spec.groups {
            assert!(file.contains(&format!("    def {}(self) -> {}:", g.rust, g.type_name)));
        }
    }
    for g in &spec.groups {
        let overload = format!(
            "        group: Literal[{:?}],\n        action: Literal[",
            g.wire
        );
        // One overload a group in each client.
        assert_eq!(python.stub.matches(&overload).count(), 2, "{}", g.wire);
    }
}
