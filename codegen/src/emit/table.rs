//! The static operation table: what the runtime, validators, CLI, sandbox and
//! estimator read, so that none of them names an action.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{
    Action, Charged, Counts, Field, FieldType, Hint, Limit, ListItem, Param, ParamType, Payload,
    Record, Role, Rule, Shape, Source, Spec, ValueKind,
};

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn source(s: Source) -> TokenStream {
    let v = format_ident!("{}", s.variant());
    quote!(rt::table::Source::#v)
}

fn role(r: Option<Role>) -> TokenStream {
    match r {
        Some(r) => {
            let v = format_ident!("{}", r.variant());
            quote!(::core::option::Option::Some(rt::table::Role::#v))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn hint(h: &Option<Hint>) -> TokenStream {
    match h {
        Some(Hint { kind, range }) => {
            let kind: ValueKind = *kind;
            let v = format_ident!("{}", kind.variant());
            let range = match range {
                Some((lo, hi)) => quote!(::core::option::Option::Some((#lo, #hi))),
                None => quote!(::core::option::Option::None),
            };
            quote!(::core::option::Option::Some(rt::table::Hint { kind: rt::table::ValueKind::#v, range: #range }))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn limit(l: &Option<Limit>) -> TokenStream {
    match l {
        Some(l) => {
            let value = l.value;
            let source = source(l.source);
            let note = option_str(l.note.as_deref());
            quote!(::core::option::Option::Some(rt::table::Limit { value: #value, source: #source, note: #note }))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn limit_required(l: &Limit) -> TokenStream {
    let value = l.value;
    let source = source(l.source);
    let note = option_str(l.note.as_deref());
    quote!(rt::table::Limit { value: #value, source: #source, note: #note })
}

fn param(p: &Param) -> TokenStream {
    let (wire, rust, description) = (&p.wire, &p.rust, &p.description);
    let kind = match &p.ty {
        ParamType::String => quote!(rt::table::ParamKind::Text),
        ParamType::Integer => quote!(rt::table::ParamKind::Integer),
        ParamType::Date => quote!(rt::table::ParamKind::Date),
        ParamType::Enum { type_name, values } => {
            quote!(rt::table::ParamKind::Enum { name: #type_name, values: &[#(#values),*] })
        }
    };
    let (required, list, implicit) = (p.required, p.list, p.implicit);
    let (min_items, max_items, min, max) = (
        limit(&p.min_items),
        limit(&p.max_items),
        limit(&p.min),
        limit(&p.max),
    );
    let default = option_str(p.default.as_deref());
    let role = role(p.role);
    quote! {
        rt::table::Param {
            wire: #wire,
            rust: #rust,
            kind: #kind,
            description: #description,
            required: #required,
            list: #list,
            implicit: #implicit,
            min_items: #min_items,
            max_items: #max_items,
            min: #min,
            max: #max,
            default: #default,
            role: #role,
        }
    }
}

fn rule(r: &Rule) -> TokenStream {
    let (if_param, if_value, require, description) =
        (&r.if_param, &r.if_value, &r.require, &r.description);
    let equal_to = option_str(r.equal_to.as_deref());
    let source = source(r.source);
    quote! {
        rt::table::Rule {
            if_param: #if_param,
            if_value: #if_value,
            require: #require,
            equal_to: #equal_to,
            source: #source,
            description: #description,
        }
    }
}

fn operation(a: &Action) -> TokenStream {
    let name = format_ident!("{}", a.const_name);
    let (group, path, action, method, description) =
        (&a.group, &a.path, &a.wire, &a.rust, &a.description);
    let aliases = &a.aliases;
    let params = a.params.iter().map(param);
    let rules = a.rules.iter().map(rule);
    let shape = match &a.response.shape {
        Shape::Array => quote!(rt::table::Shape::Array),
        Shape::Single => quote!(rt::table::Shape::Single),
        Shape::Map { key } => quote!(rt::table::Shape::Map { key: #key }),
    };
    let payload = match &a.response.payload {
        Payload::Record { name, .. } => name.as_str(),
        Payload::Serp => "serp",
    };
    let response_description = &a.response.description;
    let c = &a.cost;
    let (printed, trailing, units) = (
        option_str(c.printed.as_deref()),
        option_str(c.trailing.as_deref()),
        &c.units,
    );
    let charged = match c.charged {
        Charged::PerRow => quote!(rt::table::Charged::PerRow),
        Charged::PerCall => quote!(rt::table::Charged::PerCall),
        Charged::Unknown => quote!(rt::table::Charged::Unknown),
    };
    let charged_source = source(c.charged_source.source);
    let charged_note = option_str(c.charged_source.note.as_deref());
    let counts = match c.per_request_counts {
        Counts::Items => quote!(rt::table::Counts::Items),
        Counts::Rows => quote!(rt::table::Counts::Rows),
    };
    let per_request = limit_required(&c.per_request);
    let rpm = limit_required(&c.requests_per_minute);
    let doc = format!("`{}` `{}`: {}", a.group, a.wire, a.description);
    let output = super::builders::output_type(a);
    quote! {
        #[doc = #doc]
        pub static #name: rt::Operation = rt::Operation {
            group: #group,
            path: #path,
            action: #action,
            aliases: &[#(#aliases),*],
            method: #method,
            description: #description,
            params: &[#(#params),*],
            rules: &[#(#rules),*],
            response: rt::table::Response {
                shape: #shape,
                payload: #payload,
                description: #response_description,
            },
            decode: rt::decode_json::<#output>,
            cost: rt::table::Cost {
                printed: #printed,
                trailing: #trailing,
                units: &[#(#units),*],
                charged: #charged,
                charged_source: #charged_source,
                charged_note: #charged_note,
                per_request: #per_request,
                per_request_counts: #counts,
                requests_per_minute: #rpm,
            },
        };
    }
}

fn field(spec: &Spec, f: &Field) -> TokenStream {
    let (wire, rust, description) = (&f.wire, &f.rust, &f.description);
    let (nullable, optional) = (f.nullable, f.optional);
    let kind = match &f.ty {
        FieldType::Integer => quote!(rt::table::FieldKind::Integer),
        FieldType::Number => quote!(rt::table::FieldKind::Number),
        FieldType::String => quote!(rt::table::FieldKind::Text),
        FieldType::BoolWord => quote!(rt::table::FieldKind::BoolWord),
        FieldType::Flag => quote!(rt::table::FieldKind::Flag),
        FieldType::Date => quote!(rt::table::FieldKind::Date),
        FieldType::DateTime => quote!(rt::table::FieldKind::DateTime),
        FieldType::Time => quote!(rt::table::FieldKind::Time),
        FieldType::Serp => quote!(rt::table::FieldKind::Serp),
        FieldType::CommaList(ListItem::String) => {
            quote!(rt::table::FieldKind::CommaList { values: &[] })
        }
        FieldType::CommaList(ListItem::Enum { type_name }) => {
            let values = spec
                .enums
                .iter()
                .filter(|e| &e.type_name == type_name)
                .flat_map(|e| e.values.iter().map(|v| v.wire.as_str()));
            quote!(rt::table::FieldKind::CommaList { values: &[#(#values),*] })
        }
        FieldType::List { record, .. } => quote!(rt::table::FieldKind::List { record: #record }),
    };
    let hint = hint(&f.hint);
    quote! {
        rt::table::FieldInfo {
            wire: #wire,
            rust: #rust,
            kind: #kind,
            nullable: #nullable,
            optional: #optional,
            hint: #hint,
            description: #description,
        }
    }
}

fn record(spec: &Spec, r: &Record) -> TokenStream {
    let (name, type_name, description) = (&r.name, &r.type_name, &r.description);
    let fields = r.fields.iter().map(|f| field(spec, f));
    let key = option_str(r.key.as_deref());
    quote! {
        rt::table::RecordInfo {
            name: #name,
            type_name: #type_name,
            description: #description,
            fields: &[#(#fields),*],
            key: #key,
        }
    }
}

pub fn table(spec: &Spec) -> TokenStream {
    let records = spec.records.iter().map(|r| record(spec, r));
    let groups = spec.groups.iter().map(|g| {
        let (name, path, description) = (&g.wire, &g.path, &g.description);
        quote!(rt::table::Group { name: #name, path: #path, description: #description })
    });
    let operations = spec.actions.iter().map(operation);
    let names = spec
        .actions
        .iter()
        .map(|a| format_ident!("{}", a.const_name));
    let (base_url, title) = (&spec.base_url, &spec.title);
    let separator = spec.list_separator;
    let (no_data_status, no_data_message) = (spec.no_data.status, &spec.no_data.message);
    let envelope_response = &spec.envelope.response.wire;
    let envelope_result_rows = &spec.envelope.result_rows.wire;
    let envelope_units_used = &spec.envelope.units_used.wire;
    let envelope_units_remaining = &spec.envelope.units_remaining.wire;
    let key = param(&spec.common.key);
    let database = param(&spec.common.database);
    let action = param(&spec.common.action);
    quote! {
        /// The operation table generated from the spec: one static per action.
        pub mod operations {
            use super::*;
            /// Facts common to every call.
            pub static SERVICE: rt::table::Service = rt::table::Service {
                title: #title,
                base_url: #base_url,
                list_separator: #separator,
                no_data_status: #no_data_status,
                no_data_message: #no_data_message,
                envelope_response: #envelope_response,
                envelope_result_rows: #envelope_result_rows,
                envelope_units_used: #envelope_units_used,
                envelope_units_remaining: #envelope_units_remaining,
                key: #key,
                database: #database,
                action: #action,
            };
            #(#operations)*
            /// Every operation, in spec order.
            pub static OPERATIONS: &[&rt::Operation] = &[#(&#names),*];
            /// Every group, in spec order.
            pub static GROUPS: &[rt::table::Group] = &[#(#groups),*];
            /// Every response record, in spec order.
            pub static RECORDS: &[rt::table::RecordInfo] = &[#(#records),*];
        }
    }
}
