//! Response types and enums: a short `Deserialize` and `Serialize` for each
//! record through the runtime's `rt::record` (see [`record_decode`] and
//! [`record_encode`]), an accessor of the members the spec does not know, and
//! schemars derives behind the client's `schemars` feature (the published JSON
//! Schemas serve users of other languages; Rust users who want the schemas
//! derived turn it on).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs::doc;
use super::options::Options;
use crate::model::{Enum, Field, FieldType, ListItem, Record, SERP, UNKNOWN_MEMBERS};

/// The `JsonSchema` derive, compiled with the `schemars` feature only.
fn schema_derive() -> TokenStream {
    quote!(#[cfg_attr(feature = "schemars", derive(::schemars::JsonSchema))])
}

pub fn enum_def(e: &Enum) -> TokenStream {
    if e.open { open_enum(e) } else { closed_enum(e) }
}

fn enum_doc(e: &Enum) -> TokenStream {
    let values: Vec<String> = e.values.iter().map(|v| format!("`{}`", v.wire)).collect();
    let kind = if e.open {
        "Open set: a value the spec does not list is kept as `Other`."
    } else {
        "Closed set: any other value is refused."
    };
    let note = e
        .source
        .as_ref()
        .and_then(|s| s.note.as_deref())
        .unwrap_or("");
    doc(&[
        &e.description,
        &format!("Wire values: {}. {kind}", values.join(", ")),
        note,
    ])
}

/// What both kinds of enum spell the same way.
struct EnumParts<'a> {
    name: proc_macro2::Ident,
    docs: TokenStream,
    variants: Vec<proc_macro2::Ident>,
    wires: Vec<&'a str>,
    value_docs: Vec<TokenStream>,
}

impl<'a> EnumParts<'a> {
    fn of(e: &'a Enum) -> Self {
        EnumParts {
            name: format_ident!("{}", e.type_name),
            docs: enum_doc(e),
            variants: e
                .values
                .iter()
                .map(|v| format_ident!("{}", v.variant))
                .collect(),
            wires: e.values.iter().map(|v| v.wire.as_str()).collect(),
            value_docs: e
                .values
                .iter()
                .map(|v| doc(&[&v.description, &format!("Wire value: `{}`.", v.wire)]))
                .collect(),
        }
    }
}

fn closed_enum(e: &Enum) -> TokenStream {
    let EnumParts {
        name,
        docs,
        variants,
        wires,
        value_docs,
    } = EnumParts::of(e);
    let wire_name = &e.name;
    let schema_derive = schema_derive();
    quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize, ::serde::Deserialize)]
        #schema_derive
        #[non_exhaustive]
        pub enum #name {
            #( #value_docs #[serde(rename = #wires)] #variants, )*
        }
        impl #name {
            /// Every value, in spec order.
            pub const ALL: &'static [#name] = &[ #( #name::#variants, )* ];
            /// The value as sent on the wire.
            pub const fn as_str(self) -> &'static str {
                match self { #( #name::#variants => #wires, )* }
            }
        }
        impl rt::WireEnum for #name {
            const NAME: &'static str = #wire_name;
            const VALUES: &'static [&'static str] = &[ #( #wires, )* ];
            fn as_wire(&self) -> &str {
                self.as_str()
            }
        }
        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl ::core::str::FromStr for #name {
            type Err = rt::UnknownValue;
            fn from_str(value: &str) -> ::core::result::Result<Self, Self::Err> {
                match value {
                    #( #wires => Ok(#name::#variants), )*
                    _ => Err(rt::UnknownValue::new::<#name>(value)),
                }
            }
        }
        impl rt::quirks::ListItem for #name {
            fn item(text: &str) -> ::core::result::Result<Self, ::core::option::Option<Self>> {
                text.parse().map_err(|_| ::core::option::Option::None)
            }
        }
    }
}

fn open_enum(e: &Enum) -> TokenStream {
    let EnumParts {
        name,
        docs,
        variants,
        wires,
        value_docs,
    } = EnumParts::of(e);
    let schema_name = &e.type_name;
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum #name {
            #( #value_docs #variants, )*
            /// A value the spec does not list, kept as sent.
            Other(String),
        }
        impl #name {
            /// The value as sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #( #name::#variants => #wires, )*
                    #name::Other(value) => value,
                }
            }
        }
        impl ::core::convert::From<&str> for #name {
            fn from(value: &str) -> Self {
                match value {
                    #( #wires => #name::#variants, )*
                    other => #name::Other(other.to_owned()),
                }
            }
        }
        impl ::core::str::FromStr for #name {
            type Err = ::core::convert::Infallible;
            fn from_str(value: &str) -> ::core::result::Result<Self, Self::Err> {
                Ok(#name::from(value))
            }
        }
        impl rt::quirks::ListItem for #name {
            fn item(text: &str) -> ::core::result::Result<Self, ::core::option::Option<Self>> {
                match #name::from(text) {
                    #name::Other(value) => Err(::core::option::Option::Some(#name::Other(value))),
                    known => Ok(known),
                }
            }
        }
        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                rt::quirks::open_enum(deserializer)
            }
        }
        #[cfg(feature = "schemars")]
        impl ::schemars::JsonSchema for #name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                #schema_name.into()
            }
            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                <::std::string::String as ::schemars::JsonSchema>::json_schema(generator)
            }
        }
    }
}

pub fn record(r: &Record) -> TokenStream {
    let name = format_ident!("{}", r.type_name);
    let docs = doc(&[&r.description, &format!("Wire record `{}`.", r.name)]);
    let fields = r.fields.iter().map(field);
    let unknown = format_ident!("{}", UNKNOWN_MEMBERS);
    let decode = record_decode(r);
    let encode = record_encode(r);
    let row = row_impl(r);
    let schema_derive = schema_derive();
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #schema_derive
        #[non_exhaustive]
        pub struct #name {
            #( #fields, )*
            #[cfg_attr(feature = "schemars", schemars(skip))]
            #unknown: rt::UnknownMembers,
        }

        impl #name {
            /// The members of this row that the spec does not know, and
            /// those whose value did not fit their field (the field is then
            /// empty), by wire name, with their JSON values as sent (empty,
            /// at no cost, when there are none). They are written back as
            /// sent: a field's in its place, the others after the fields.
            pub fn #unknown(&self) -> &rt::UnknownMembers {
                &self.#unknown
            }
        }

        #decode

        #encode

        #row
    }
}

/// `Deserialize` for a record, through the runtime's `rt::record`: its wire
/// names, how each field is read (its type's kind) and what its absence means
/// (an error for a field that names the row, an empty value or a note of
/// drift for the others, as its presence says).
fn record_decode(r: &Record) -> TokenStream {
    let name = format_ident!("{}", r.type_name);
    let (type_name, spec_name) = (&r.type_name, &r.name);
    let wires: Vec<_> = r.fields.iter().map(|f| &f.wire).collect();
    let indices: Vec<_> = (0..r.fields.len())
        .map(proc_macro2::Literal::usize_unsuffixed)
        .collect();
    let slots: Vec<_> = r
        .fields
        .iter()
        .map(|f| format_ident!("{}", f.rust))
        .collect();
    let kinds: Vec<_> = r.fields.iter().map(field_kind).collect();
    let unknown = format_ident!("{}", UNKNOWN_MEMBERS);
    // One field is read with an `if` (clippy's single_match), more with a `match`.
    let read = match (&slots[..], &kinds[..]) {
        ([slot], [kind]) => quote! {
            if index == 0 {
                fields.read(&mut #slot, #kind)?;
            }
        },
        _ => quote! {
            match index {
                #( #indices => fields.read(&mut #slots, #kinds)?, )*
                _ => {}
            }
        },
    };
    let inits = r
        .fields
        .iter()
        .zip(&slots)
        .zip(&indices)
        .map(|((f, slot), index)| {
            let value = match (f.optional, f.nullable) {
                (false, false) => quote!(fields.required(#slot, #index)?),
                (true, false) => quote!(fields.optional(#slot, #index)),
                (false, true) => quote!(fields.nullable(#slot, #index)),
                // Absent and `null` alike: the slot is the value.
                (true, true) if f.is_option() => return quote!(#slot),
                (true, true) => quote!(#slot),
            };
            if f.may_be_missing() && !f.is_option() {
                quote!(#slot: #value.unwrap_or_default())
            } else {
                quote!(#slot: #value)
            }
        });
    quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                rt::record::deserialize(deserializer)
            }
        }

        impl rt::record::Record for #name {
            const NAME: &'static str = #type_name;
            const RECORD: &'static str = #spec_name;
            const FIELDS: &'static [&'static str] = &[ #( #wires, )* ];
            const PLACES: &'static [rt::record::Place] = &[
                #( rt::record::Place { record: #spec_name, member: #wires }, )*
            ];

            fn field_index(wire: &str) -> ::core::option::Option<usize> {
                match wire {
                    #( #wires => ::core::option::Option::Some(#indices), )*
                    _ => ::core::option::Option::None,
                }
            }

            fn from_fields<'de, A: ::serde::de::MapAccess<'de>>(
                mut fields: rt::record::Fields<'de, A, Self>,
            ) -> ::core::result::Result<Self, A::Error> {
                #( let mut #slots = ::core::option::Option::None; )*
                while let ::core::option::Option::Some(index) = fields.next_field()? {
                    #read
                }
                ::core::result::Result::Ok(#name {
                    #( #inits, )*
                    #unknown: fields.unknown(),
                })
            }
        }
    }
}

/// `Serialize` for a record, through the runtime's `rt::record::Writer`:
/// each field under its wire name in its wire form, then the members the spec
/// does not know.
fn record_encode(r: &Record) -> TokenStream {
    let name = format_ident!("{}", r.type_name);
    let unknown = format_ident!("{}", UNKNOWN_MEMBERS);
    let writes = r.fields.iter().map(|f| {
        let wire = &f.wire;
        let field = format_ident!("{}", f.rust);
        let value = match &f.ty {
            FieldType::BoolWord => quote!(&rt::quirks::write::AsBoolWord(&self.#field)),
            FieldType::Flag => quote!(&rt::quirks::write::AsFlag(&self.#field)),
            FieldType::CommaList(_) => quote!(&rt::quirks::write::AsCommaList(&self.#field)),
            _ => quote!(&self.#field),
        };
        quote!(out.field(#wire, #value)?;)
    });
    quote! {
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                let mut out = rt::record::Writer::start::<Self>(serializer, &self.#unknown)?;
                #( #writes )*
                out.end(&self.#unknown)
            }
        }
    }
}

/// How a record's decoder reads a field: its type's kind.
fn field_kind(f: &Field) -> TokenStream {
    let phantom = quote!(::core::marker::PhantomData);
    match &f.ty {
        FieldType::Integer => quote!(rt::quirks::kind::Integer),
        FieldType::Number => quote!(rt::quirks::kind::Number),
        FieldType::String => quote!(rt::quirks::kind::Text),
        FieldType::BoolWord => quote!(rt::quirks::kind::BoolWord),
        FieldType::Flag => quote!(rt::quirks::kind::Flag),
        FieldType::Date => quote!(rt::quirks::kind::DATE),
        FieldType::DateTime => quote!(rt::quirks::kind::DATE_TIME),
        FieldType::Time => quote!(rt::quirks::kind::TIME),
        FieldType::Serp => quote!(rt::quirks::kind::SerpPositions),
        FieldType::CommaList(_) => quote!(rt::quirks::kind::CommaList(#phantom)),
        FieldType::List { .. } => quote!(rt::quirks::kind::List(#phantom)),
    }
}

/// `rt::Row` for a record: its text fields by wire name, so that the runtime can
/// match the rows of a batched job back to their inputs without naming a record.
fn row_impl(r: &Record) -> TokenStream {
    let name = format_ident!("{}", r.type_name);
    let arms: Vec<TokenStream> = r
        .fields
        .iter()
        .filter(|f| f.ty == FieldType::String)
        .map(|f| {
            let field = format_ident!("{}", f.rust);
            let wire = &f.wire;
            if f.is_option() {
                quote!(#wire => self.#field.as_deref(),)
            } else {
                quote!(#wire => ::core::option::Option::Some(self.#field.as_str()),)
            }
        })
        .collect();
    let body = if arms.is_empty() {
        quote! {
            fn text_field(&self, _wire: &str) -> ::core::option::Option<&str> {
                ::core::option::Option::None
            }
        }
    } else {
        quote! {
            fn text_field(&self, wire: &str) -> ::core::option::Option<&str> {
                match wire {
                    #(#arms)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    };
    quote! {
        impl rt::Row for #name {
            #body
        }
    }
}

/// The Rust type of a field, and its schemars attributes (its wire name,
/// whether it may be absent, and the JSON type of its wire form).
fn field_type(f: &Field) -> (TokenStream, TokenStream) {
    let option = f.is_option();
    let (ty, schema_as): (TokenStream, Option<TokenStream>) = match &f.ty {
        FieldType::Integer => (quote!(i64), None),
        FieldType::Number => (quote!(f64), None),
        FieldType::String => (quote!(::std::string::String), None),
        FieldType::BoolWord => (
            quote!(::core::option::Option<bool>),
            Some(quote!(::core::option::Option<::std::string::String>)),
        ),
        FieldType::Flag => (quote!(bool), Some(quote!(i64))),
        FieldType::Date => (quote!(rt::Date), Some(quote!(::std::string::String))),
        FieldType::DateTime => (quote!(rt::DateTime), Some(quote!(::std::string::String))),
        FieldType::Time => (quote!(rt::Time), Some(quote!(::std::string::String))),
        FieldType::Serp => (quote!(rt::Serp), None),
        FieldType::CommaList(item) => {
            let item = match item {
                ListItem::String => quote!(::std::string::String),
                ListItem::Enum { type_name } => {
                    let t = format_ident!("{}", type_name);
                    quote!(#t)
                }
            };
            (
                quote!(::std::vec::Vec<#item>),
                Some(quote!(::core::option::Option<::std::string::String>)),
            )
        }
        FieldType::List { type_name, .. } => {
            let t = format_ident!("{}", type_name);
            // On the wire a nullable list may be `null` (the record holds
            // an empty one).
            let wire = f
                .nullable
                .then(|| quote!(::core::option::Option<::std::vec::Vec<#t>>));
            (quote!(::std::vec::Vec<#t>), wire)
        }
    };
    let wrap = |t: TokenStream| {
        if option {
            quote!(::core::option::Option<#t>)
        } else {
            t
        }
    };
    let ty = wrap(ty);
    let wire = &f.wire;
    let default = f.may_be_missing().then(|| quote!(default,));
    let schema = schema_as.map(|t| {
        let t = wrap(t).to_string().replace(' ', "");
        quote!(#[cfg_attr(feature = "schemars", schemars(with = #t))])
    });
    (
        ty,
        quote! { #[cfg_attr(feature = "schemars", serde(#default rename = #wire))] #schema },
    )
}

fn field(f: &Field) -> TokenStream {
    let name = format_ident!("{}", f.rust);
    let may = match (f.nullable, f.optional) {
        (false, false) => None,
        (true, false) => Some("be `null`"),
        (false, true) => Some("be absent"),
        (true, true) => Some("be absent or `null`"),
    };
    let source = f.presence.source.word();
    let presence = match may {
        None => format!(
            "Always sent ({source}): a row without it, or with `null`, is kept raw in `Envelope::raw_rows`."
        ),
        Some(may) => format!(
            "May {may} ({source}): the field is then empty, as it is when the value cannot be read."
        ),
    };
    let docs = doc(&[
        &f.description,
        &format!("Wire name: `{}`. {presence}", f.wire),
    ]);
    let (ty, attrs) = field_type(f);
    quote! { #docs #attrs pub #name: #ty }
}

/// Where the runtime crate's build script writes the envelope's JSON Schema
/// (with its `schemars` feature), relative to `OUT_DIR`: made by the shared
/// schema module (`seozoom_codegen::schema::envelope`), as the published
/// documents' envelopes are.
pub const ENVELOPE_SCHEMA_FILE: &str = "envelope.schema.json";

/// Where the runtime crate's build script writes the SERP's JSON Schema (with
/// its `schemars` feature), relative to `OUT_DIR`: made by the shared schema
/// module (`seozoom_codegen::schema::serp`), as the published documents' is.
pub const SERP_SCHEMA_FILE: &str = "serp.schema.json";

/// The search-result list is the runtime's (`rt::Serp`); inside the runtime's
/// crate its `JsonSchema` is added here: the schema the build script wrote
/// ([`SERP_SCHEMA_FILE`]), named [`SERP`].
pub fn serp(options: &Options) -> TokenStream {
    if !options.in_runtime_crate() {
        return TokenStream::new();
    }
    let file = format!("/{SERP_SCHEMA_FILE}");
    quote! {
        #[cfg(feature = "schemars")]
        impl ::schemars::JsonSchema for rt::Serp {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                #SERP.into()
            }

            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let serp = ::core::include_str!(::core::concat!(::core::env!("OUT_DIR"), #file));
                // An object is always a schema.
                rt::serde_json::from_str(serp).unwrap_or_default()
            }
        }
    }
}

/// The envelope is the runtime's (`rt::Envelope`); inside the runtime's crate
/// it is re-exported here and its serde and schemars impls added, handing the
/// runtime this API's member names (`SERVICE`) and the envelope's schema the
/// build script wrote ([`ENVELOPE_SCHEMA_FILE`]).
pub fn envelope(options: &Options) -> TokenStream {
    if !options.in_runtime_crate() {
        // Builders name `rt::Envelope`; another crate can add no impl to it.
        return TokenStream::new();
    }
    let file = format!("/{ENVELOPE_SCHEMA_FILE}");
    quote! {
        pub use rt::Envelope;

        impl<T: ::serde::Serialize> ::serde::Serialize for rt::Envelope<T> {
            fn serialize<S: ::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                let named = rt::WithWireNames {
                    envelope: self,
                    service: &super::operations::SERVICE,
                };
                ::serde::Serialize::serialize(&named, serializer)
            }
        }

        impl<'de, T: ::serde::Deserialize<'de>> ::serde::Deserialize<'de> for rt::Envelope<T> {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let seed = rt::EnvelopeSeed::new(&super::operations::SERVICE);
                ::serde::de::DeserializeSeed::deserialize(seed, deserializer)
            }
        }

        #[cfg(feature = "schemars")]
        impl<T: ::schemars::JsonSchema> ::schemars::JsonSchema for rt::Envelope<T> {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::format!("Envelope_for_{}", T::schema_name()).into()
            }

            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let envelope = ::core::include_str!(::core::concat!(::core::env!("OUT_DIR"), #file));
                rt::envelope_schema::<T>(generator, &super::operations::SERVICE, envelope)
            }
        }
    }
}
