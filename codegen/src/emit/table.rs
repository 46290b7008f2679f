//! The static operation table: what the runtime, validators, CLI, sandbox and
//! estimator read, so that none of them names an action. Each entry is one
//! chain of the runtime's `const` constructors (`Param::int("limit").required()`),
//! which states only what differs from the neutral value.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::options::Options;
use crate::model::{
    Action, Charged, Counts, Field, FieldType, Fresh, Freshness, Hint, Limit, ListItem, Param,
    ParamType, Payload, Record, Role, Rule, Shape, Source, Spec, ValueKind,
};

/// An integer literal with its digits grouped by thousands (`10_000`).
fn number(value: i64) -> Literal {
    let digits = value.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) && digits.len() > 4 {
            grouped.push('_');
        }
        grouped.push(digit);
    }
    let text = if value < 0 {
        format!("-{grouped}")
    } else {
        grouped
    };
    text.parse()
        .unwrap_or_else(|_| Literal::i64_unsuffixed(value))
}

fn source(s: Source) -> TokenStream {
    let v = format_ident!("{}", s.variant());
    quote!(Source::#v)
}

/// `Limit::stated(100)`, with `.note(..)` when the spec gives one.
fn limit(l: &Limit) -> TokenStream {
    let constructor = format_ident!("{}", l.source.variant().to_lowercase());
    let value = number(l.value);
    let note = l.note.as_deref().map(|n| quote!(.note(#n)));
    quote!(Limit::#constructor(#value) #note)
}

fn hint(h: &Hint) -> TokenStream {
    let kind: ValueKind = h.kind;
    let v = format_ident!("{}", kind.variant());
    let range = h.range.map(|(lo, hi)| {
        let (lo, hi) = (number(lo), number(hi));
        quote!(.range(#lo, #hi))
    });
    quote!(Hint::new(ValueKind::#v) #range)
}

fn role(r: Role) -> TokenStream {
    let v = format_ident!("{}", r.variant());
    quote!(Role::#v)
}

fn param(p: &Param) -> TokenStream {
    let wire = &p.wire;
    let constructor = match &p.ty {
        ParamType::String => quote!(Param::text(#wire)),
        ParamType::Integer => quote!(Param::int(#wire)),
        ParamType::Date => quote!(Param::date(#wire)),
        ParamType::Enum { type_name, values } => {
            quote!(Param::one_of(#wire, #type_name, &[#(#values),*]))
        }
    };
    let rust = (p.rust != p.wire).then(|| {
        let rust = &p.rust;
        quote!(.rust(#rust))
    });
    let flag = |on: bool, name: &str| {
        let name = format_ident!("{}", name);
        on.then(|| quote!(.#name()))
    };
    let (required, list, implicit) = (
        flag(p.required, "required"),
        flag(p.list, "list"),
        flag(p.implicit, "implicit"),
    );
    let limits = [
        ("min_items", &p.min_items),
        ("max_items", &p.max_items),
        ("min", &p.min),
        ("max", &p.max),
    ]
    .into_iter()
    .filter_map(|(name, l)| {
        let name = format_ident!("{}", name);
        l.as_ref().map(|l| {
            let l = limit(l);
            quote!(.#name(#l))
        })
    });
    let default = p.default.as_deref().map(|d| quote!(.default(#d)));
    let role = p.role.map(|r| {
        let r = role(r);
        quote!(.role(#r))
    });
    let compare = p.compare.as_ref().filter(|c| !c.fold.is_empty()).map(|c| {
        let folds = c.fold.iter().map(|f| format_ident!("{}", f.variant()));
        quote!(.compare(&[#(Fold::#folds),*]))
    });
    let description = &p.description;
    quote! {
        #constructor #rust #required #list #implicit #(#limits)* #default #role #compare
            .description(#description)
    }
}

fn rule(r: &Rule) -> TokenStream {
    let (if_param, if_value, require, description) =
        (&r.if_param, &r.if_value, &r.require, &r.description);
    let source = source(r.source);
    let equal_to = r.equal_to.as_deref().map(|v| quote!(.equal_to(#v)));
    quote! {
        Requirement::when(#if_param, #if_value, #source)
            .requires(#require)
            #equal_to
            .description(#description)
    }
}

fn response(a: &Action) -> TokenStream {
    let shape = match &a.response.shape {
        Shape::Array => quote!(Shape::Array),
        Shape::Single => quote!(Shape::Single),
        Shape::Map { key } => quote!(Shape::Map { key: #key }),
    };
    let payload = match &a.response.payload {
        Payload::Record { name, .. } => name.as_str(),
        Payload::Serp => "serp",
    };
    let description = &a.response.description;
    quote!(Response::new(#shape, #payload).description(#description))
}

fn cost(a: &Action) -> TokenStream {
    let c = &a.cost;
    let charged = match c.charged {
        Charged::PerRow => quote!(Charged::PerRow),
        Charged::PerCall => quote!(Charged::PerCall),
        Charged::Unknown => quote!(Charged::Unknown),
    };
    let units = c.units.iter().map(|u| number(*u));
    let charged_source = source(c.charged_source.source);
    let counts = match c.per_request_counts {
        Counts::Items => quote!(Counts::Items),
        Counts::Rows => quote!(Counts::Rows),
    };
    let per_request = limit(&c.per_request);
    let per_minute = limit(&c.requests_per_minute);
    let printed = c.printed.as_deref().map(|p| quote!(.printed(#p)));
    let trailing = c.trailing.as_deref().map(|t| quote!(.trailing(#t)));
    let note = c
        .charged_source
        .note
        .as_deref()
        .map(|n| quote!(.charged_note(#n)));
    quote! {
        Cost::new(#charged, &[#(#units),*], #charged_source, #per_request, #counts, #per_minute)
            #printed #trailing #note
    }
}

/// `Freshness::new(86_400, Source::Decided)`, with `.past_days_..()` and
/// `.note(..)` when the spec gives them.
fn freshness(f: &Freshness) -> TokenStream {
    let ttl = seconds(f.ttl_secs);
    let source = source(f.source);
    let past_days = f.past_days.map(|p| match p {
        Fresh::ForGood => quote!(.past_days_for_good()),
        Fresh::For(secs) => {
            let secs = seconds(secs);
            quote!(.past_days_for(#secs))
        }
    });
    let note = f.note.as_deref().map(|n| quote!(.note(#n)));
    quote!(Freshness::new(#ttl, #source) #past_days #note)
}

/// A number of seconds, grouped as [`number`] groups figures.
fn seconds(secs: u64) -> Literal {
    i64::try_from(secs).map_or_else(|_| Literal::u64_unsuffixed(secs), number)
}

fn operation(a: &Action) -> TokenStream {
    let name = format_ident!("{}", a.const_name);
    let (group, path, action, description) = (&a.group, &a.path, &a.wire, &a.description);
    let method = (a.rust != a.wire).then(|| {
        let method = &a.rust;
        quote!(.method(#method))
    });
    let aliases = (!a.aliases.is_empty()).then(|| {
        let aliases = &a.aliases;
        quote!(.aliases(&[#(#aliases),*]))
    });
    let params = (!a.params.is_empty()).then(|| {
        let params = a.params.iter().map(param);
        quote!(.params(&[#(#params),*]))
    });
    let rules = (!a.rules.is_empty()).then(|| {
        let rules = a.rules.iter().map(rule);
        quote!(.rules(&[#(#rules),*]))
    });
    let (response, cost, freshness) = (response(a), cost(a), freshness(&a.freshness));
    let batched_by = a.batch_param().map(|p| {
        let wire = &p.wire;
        quote!(.batched_by(#wire))
    });
    let paged_by = a.paging().map(|(offset, limit)| {
        let (offset, limit) = (&offset.wire, &limit.wire);
        quote!(.paged_by(#offset, #limit))
    });
    let doc = format!("`{}` `{}`: {}", a.group, a.wire, a.description);
    quote! {
        #[doc = #doc]
        pub static #name: Operation = Operation::new(&SERVICE, #group, #path, #action, #response, #cost)
            #method
            #aliases
            .description(#description)
            #params
            #rules
            #batched_by
            #paged_by
            .freshness(#freshness);
    }
}

fn field(spec: &Spec, f: &Field) -> TokenStream {
    let wire = &f.wire;
    let kind = match &f.ty {
        FieldType::Integer => quote!(FieldKind::Integer),
        FieldType::Number => quote!(FieldKind::Number),
        FieldType::String => quote!(FieldKind::Text),
        FieldType::BoolWord => quote!(FieldKind::BoolWord),
        FieldType::Flag => quote!(FieldKind::Flag),
        FieldType::Date => quote!(FieldKind::Date),
        FieldType::DateTime => quote!(FieldKind::DateTime),
        FieldType::Time => quote!(FieldKind::Time),
        FieldType::Serp => quote!(FieldKind::Serp),
        FieldType::CommaList(ListItem::String) => {
            quote!(FieldKind::CommaList {
                values: &[],
                enumeration: ::core::option::Option::None,
            })
        }
        FieldType::CommaList(ListItem::Enum { type_name }) => {
            let values = spec
                .enums
                .iter()
                .filter(|e| &e.type_name == type_name)
                .flat_map(|e| e.values.iter().map(|v| v.wire.as_str()));
            let name = spec
                .enums
                .iter()
                .find(|e| &e.type_name == type_name)
                .map(|e| e.name.as_str())
                .unwrap_or_default();
            quote!(FieldKind::CommaList {
                values: &[#(#values),*],
                enumeration: ::core::option::Option::Some(#name),
            })
        }
        FieldType::List { record, .. } => quote!(FieldKind::List { record: #record }),
    };
    let rust = (f.rust != f.wire).then(|| {
        let rust = &f.rust;
        quote!(.rust(#rust))
    });
    let nullable = f.nullable.then(|| quote!(.nullable()));
    let optional = f.optional.then(|| quote!(.optional()));
    let presence = (f.presence.source != Source::Stated).then(|| {
        let source = format_ident!("{}", f.presence.source.variant());
        quote!(.presence(Source::#source))
    });
    let hint = f.hint.as_ref().map(|h| {
        let h = hint(h);
        quote!(.hint(#h))
    });
    let priority = f.priority.map(|rank| quote!(.priority(#rank)));
    let description = &f.description;
    quote! {
        FieldInfo::new(#wire, #kind) #rust #nullable #optional #presence #hint #priority .description(#description)
    }
}

fn record(spec: &Spec, r: &Record) -> TokenStream {
    let (name, type_name, description) = (&r.name, &r.type_name, &r.description);
    let fields = r.fields.iter().map(|f| field(spec, f));
    let key = r.key.as_deref().map(|k| quote!(.key(#k)));
    quote! {
        RecordInfo::new(#name, #type_name, &[#(#fields),*])
            .description(#description)
            #key
    }
}

/// Decoding a body as each operation's typed result, re-encoded as JSON: one
/// `match`, so that a decoder is compiled only in the crate that calls this
/// (the command line), never in every user's build.
fn decode_json(spec: &Spec) -> TokenStream {
    let arms = spec.actions.iter().map(|a| {
        let (group, action) = (&a.group, &a.wire);
        let output = super::builders::output_type(a);
        quote!((#group, #action) => rt::decode_json::<#output>(op, status, body),)
    });
    quote! {
        /// Decode a body received with `status` as `op`'s typed result and
        /// re-encode its `response` as JSON with the API's field names, for
        /// tools that handle every operation alike (a command line). An
        /// operation not in this table is decoded as JSON as it is.
        ///
        /// # Errors
        ///
        /// As a call's: the service's error, "No data found!" for an operation
        /// that returns one object, or a body that does not decode.
        #[inline]
        pub fn decode_json(
            op: &Operation,
            status: u16,
            body: &[u8],
        ) -> ::core::result::Result<rt::Envelope<rt::serde_json::Value>, rt::Error> {
            match (op.group, op.action) {
                #(#arms)*
                _ => rt::decode_json::<rt::serde_json::Value>(op, status, body),
            }
        }
    }
}

pub fn table(spec: &Spec, options: &Options) -> TokenStream {
    let rt = options.runtime_path();
    let records = spec.records.iter().map(|r| record(spec, r));
    let groups = spec.groups.iter().map(|g| {
        let (name, path, description) = (&g.wire, &g.path, &g.description);
        quote!(Group::new(#name, #path).description(#description))
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
    let decode_json = decode_json(spec);
    // The records' types are named only by operations whose payload is one.
    let uses_types = spec
        .actions
        .iter()
        .any(|a| matches!(a.response.payload, Payload::Record { .. }))
        .then(|| {
            quote!(
                use super::types;
            )
        });
    let no_data_status = Literal::u16_unsuffixed(no_data_status);
    let refusals = spec
        .refusals
        .iter()
        .map(|r| Literal::u16_unsuffixed(r.status));
    quote! {
        /// The operation table generated from the spec: one static per action.
        pub mod operations {
            use #rt as rt;
            use rt::table::*;
            #uses_types

            /// Facts common to every call.
            pub static SERVICE: Service = Service {
                title: #title,
                base_url: #base_url,
                list_separator: #separator,
                no_data_status: #no_data_status,
                no_data_message: #no_data_message,
                refusals: &[#(#refusals),*],
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
            pub static OPERATIONS: &[&Operation] = &[#(&#names),*];
            /// Every group, in spec order.
            pub static GROUPS: &[Group] = &[#(#groups),*];
            /// Every response record, in spec order.
            pub static RECORDS: &[RecordInfo] = &[#(#records),*];
            /// The whole table, as the runtime is handed it.
            pub static API: Api = Api {
                service: &SERVICE,
                operations: OPERATIONS,
                records: RECORDS,
            };
            #decode_json
        }
    }
}
