//! Group accessors and request builders. Required parameters are constructor
//! arguments (a missing one does not compile); optional ones are methods;
//! `send` hands a generic request to the runtime.
//!
//! The entry points that decode (`send`, `send_all`, `pages`) are `#[inline]`
//! and return the runtime's generic future or stream, so an operation's decoder
//! is compiled in the crate that calls it, not in the client for all of them.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs::doc;
use super::options::Options;
use crate::model::{Action, Charged, Compare, Group, Param, ParamType, Payload, Shape, Spec};

/// Type names of the database enum used by `db` setters.
fn database_type(spec: &Spec) -> TokenStream {
    match &spec.common.database.ty {
        ParamType::Enum { type_name, .. } => {
            let t = format_ident!("{}", type_name);
            quote!(types::#t)
        }
        // Validation guarantees an enum; a string keeps the output compilable regardless.
        _ => quote!(&'static str),
    }
}

/// Group accessors on `Client`, and the typed `db` setter on `ClientBuilder`.
///
/// Generated inside the runtime's crate (the runtime path starts with `crate`)
/// they are inherent methods. Generated elsewhere (the compiled goldens of the
/// generator's tests) a foreign type takes no inherent methods: the accessors
/// are then a trait, `ClientExt`, and the `db` setter is left out (it reaches
/// a method private to the runtime's crate).
pub fn client_ext(spec: &Spec, options: &Options) -> TokenStream {
    let signatures: Vec<(TokenStream, TokenStream, TokenStream)> = spec
        .groups
        .iter()
        .map(|g| {
            let method = format_ident!("{}", g.rust);
            let ty = format_ident!("{}", g.type_name);
            let docs = doc(&[&g.description, &format!("Operations under `{}`.", g.path)]);
            (
                docs,
                quote!(fn #method(&self) -> #ty<'_>),
                quote!(#ty { client: self }),
            )
        })
        .collect();
    if !options.in_runtime_crate() {
        let declarations = signatures.iter().map(|(docs, sig, _)| quote!(#docs #sig;));
        let methods = signatures
            .iter()
            .map(|(_, sig, body)| quote!(#sig { #body }));
        return quote! {
            /// The group accessors, on the runtime's `Client`.
            pub trait ClientExt {
                #(#declarations)*
            }

            impl ClientExt for rt::Client {
                #(#methods)*
            }
        };
    }
    let accessors = signatures
        .iter()
        .map(|(docs, sig, body)| quote!(#docs pub #sig { #body }));
    let db = database_type(spec);
    let db_doc = doc(&[&spec.common.database.description]);
    quote! {
        /// Any operation's result as JSON: each answer decoded as the
        /// operation's typed result and re-encoded with the API's field names,
        /// by the table's decoder of every operation. Inline, so that those
        /// decoders are compiled only in a crate that runs a job for JSON (a
        /// command line), never in every user's build.
        impl rt::Output for rt::serde_json::Value {
            type Answer = rt::serde_json::Value;

            fn from_answer(answer: rt::serde_json::Value) -> Self {
                answer
            }

            fn nothing(op: &rt::Operation) -> Self {
                rt::json_output::nothing(op)
            }

            fn rows(&self) -> usize {
                rt::json_output::rows(self)
            }

            fn truncate(&mut self, rows: usize) {
                rt::json_output::truncate(self, rows);
            }

            #[inline]
            fn decoder() -> rt::Decoder<rt::serde_json::Value> {
                operations::decode_json
            }
        }

        impl rt::Client {
            /// A client with default settings and this key.
            ///
            /// # Errors
            ///
            /// As [`ClientBuilder::build`](rt::ClientBuilder::build); an empty key is
            /// [`ConfigError::MissingKey`](crate::error::ConfigError::MissingKey).
            pub fn new(api_key: impl ::core::convert::Into<::std::string::String>) -> ::core::result::Result<rt::Client, rt::Error> {
                rt::Client::builder().api_key(api_key).build()
            }

            /// A client with default settings and the key in `SEOZOOM_API_KEY`.
            ///
            /// # Errors
            ///
            /// [`ConfigError::KeyNotSet`](crate::error::ConfigError::KeyNotSet) when the variable is
            /// not set, else as [`ClientBuilder::build`](rt::ClientBuilder::build).
            pub fn from_env() -> ::core::result::Result<rt::Client, rt::Error> {
                rt::Client::builder().build_from_env()
            }

            /// A builder for the other settings.
            pub fn builder() -> rt::ClientBuilder {
                rt::ClientBuilder::for_api(&operations::API)
            }

            #(#accessors)*
        }

        impl ::core::default::Default for rt::ClientBuilder {
            fn default() -> Self {
                rt::ClientBuilder::for_api(&operations::API)
            }
        }

        #[cfg(feature = "sandbox")]
        impl rt::Sandbox {
            /// Start a sandbox on `127.0.0.1` and a port chosen by the system.
            ///
            /// # Errors
            ///
            /// The I/O error when no loopback port can be bound.
            pub async fn start() -> ::std::io::Result<rt::Sandbox> {
                rt::Sandbox::start_on(0).await
            }

            /// Start a sandbox on `127.0.0.1:port` (0: a port chosen by the system).
            ///
            /// # Errors
            ///
            /// The I/O error when the port cannot be bound (taken, or not allowed).
            pub async fn start_on(port: u16) -> ::std::io::Result<rt::Sandbox> {
                rt::Sandbox::builder().port(port).start().await
            }

            /// A sandbox with other settings: a port, injected faults.
            pub fn builder() -> rt::SandboxBuilder {
                rt::SandboxBuilder::for_api(&operations::API)
            }
        }

        #[cfg(feature = "sandbox")]
        impl ::core::default::Default for rt::SandboxBuilder {
            fn default() -> Self {
                rt::SandboxBuilder::for_api(&operations::API)
            }
        }

        impl rt::Operation {
            /// The operation of this group and wire action name (aliases are not
            /// looked up: they are the reference's other names, not the wire's).
            pub fn find(group: &str, action: &str) -> ::core::option::Option<&'static rt::Operation> {
                rt::Operation::find_in(operations::OPERATIONS, group, action)
            }
        }

        impl rt::ClientBuilder {
            #db_doc
            pub fn db(self, db: #db) -> Self {
                self.database(db.as_str())
            }
        }
    }
}

pub fn group(spec: &Spec, g: &Group) -> TokenStream {
    let ty = format_ident!("{}", g.type_name);
    let docs = doc(&[
        &g.description,
        &format!(
            "Obtained from [`Client::{}`](rt::Client::{}).",
            g.rust, g.rust
        ),
    ]);
    let constructors = spec
        .actions
        .iter()
        .filter(|a| a.group == g.wire)
        .map(constructor);
    quote! {
        #docs
        #[derive(Debug, Clone, Copy)]
        pub struct #ty<'a> {
            client: &'a rt::Client,
        }
        impl #ty<'_> {
            #(#constructors)*
        }
    }
}

/// How a parameter is taken by the constructor or setter, and stored.
fn arg_type(p: &Param) -> (TokenStream, TokenStream, TokenStream) {
    let single = match &p.ty {
        ParamType::String => quote!(::std::string::String),
        // `ParamType::INTEGER_RANGE` is this type's range: keep them together.
        ParamType::Integer => quote!(i64),
        ParamType::Date => quote!(rt::Date),
        ParamType::Enum { type_name, .. } => {
            let t = format_ident!("{}", type_name);
            quote!(types::#t)
        }
    };
    let name = format_ident!("{}", p.rust);
    match (p.list, &p.ty) {
        (true, _) => (
            quote!(impl ::core::iter::IntoIterator<Item = impl ::core::convert::Into<#single>>),
            quote!(::std::vec::Vec<#single>),
            quote!(#name.into_iter().map(::core::convert::Into::into).collect()),
        ),
        (false, ParamType::String) => (
            quote!(impl ::core::convert::Into<::std::string::String>),
            single,
            quote!(#name.into()),
        ),
        (false, _) => (single.clone(), single, quote!(#name)),
    }
}

/// `text` with its first letter in upper case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

pub(crate) fn units_text(a: &Action) -> String {
    let units = a
        .cost
        .units
        .iter()
        .map(|u| u.to_string())
        .collect::<Vec<_>>()
        .join(" to ");
    let basis = match a.cost.charged {
        Charged::PerRow => "per returned row",
        Charged::PerCall => "per call",
        Charged::Unknown => "",
    };
    let counts = match a.cost.per_request_counts {
        crate::model::Counts::Items => "input items",
        crate::model::Counts::Rows => "rows",
    };
    let limits = format!(
        "at most {} {counts} per request and {} requests per minute",
        a.cost.per_request.value, a.cost.requests_per_minute.value,
    );
    let from = match &a.cost.trailing {
        Some(trailing) => format!("inferred from \"{trailing}\""),
        None => a
            .cost
            .per_request
            .note
            .clone()
            .unwrap_or_else(|| "not from the reference".to_owned()),
    };
    match &a.cost.printed {
        Some(printed) => {
            format!("Cost: {units} units {basis} (printed \"{printed}\"); {limits} ({from}).")
        }
        None => format!(
            "Cost: unknown, the reference prints none; a client with a budget refuses the call, and without one the units it reports are counted. {} ({from}).",
            capitalised(&limits)
        ),
    }
}

pub(crate) fn param_doc(p: &Param) -> String {
    let mut limits = Vec::new();
    for (label, l) in [
        ("at least", &p.min_items),
        ("at most", &p.max_items),
        ("minimum", &p.min),
        ("maximum", &p.max),
    ] {
        if let Some(l) = l {
            let unit = if label.starts_with("at") {
                " values"
            } else {
                ""
            };
            limits.push(format!(
                "{label} {}{unit} ({})",
                l.value,
                l.source.variant().to_lowercase()
            ));
        }
    }
    let limits = if limits.is_empty() {
        String::new()
    } else {
        format!(" Limits: {}.", limits.join(", "))
    };
    format!("`{}`: {}{limits}", p.wire, p.description)
}

fn constructor(a: &Action) -> TokenStream {
    let method = format_ident!("{}", a.rust);
    let builder = format_ident!("{}", a.type_name);
    let required: Vec<&Param> = a.params.iter().filter(|p| p.required).collect();
    let args = required.iter().map(|p| {
        let name = format_ident!("{}", p.rust);
        let (arg, _, _) = arg_type(p);
        quote!(#name: #arg)
    });
    let inits = a.params.iter().map(|p| {
        let name = format_ident!("{}", p.rust);
        if p.required {
            match (p.list, &p.ty) {
                (false, ParamType::Integer | ParamType::Date | ParamType::Enum { .. }) => {
                    quote!(#name)
                }
                _ => {
                    let (_, _, convert) = arg_type(p);
                    quote!(#name: #convert)
                }
            }
        } else {
            quote!(#name: ::core::option::Option::None)
        }
    });
    let params_doc: Vec<String> = required
        .iter()
        .map(|p| format!("- {}", param_doc(p)))
        .collect();
    let docs = doc(&[
        &a.description,
        &format!("`GET {}?action={}`. {}", a.path, a.wire, units_text(a)),
        &params_doc.join("\n"),
    ]);
    quote! {
        #docs
        pub fn #method(&self, #(#args),*) -> #builder {
            #builder {
                client: self.client.clone(),
                db: ::core::option::Option::None,
                #(#inits,)*
            }
        }
    }
}

/// The Rust type of an operation's `response`.
pub fn output_type(a: &Action) -> TokenStream {
    let payload = match &a.response.payload {
        Payload::Record { type_name, .. } => {
            let t = format_ident!("{}", type_name);
            quote!(types::#t)
        }
        Payload::Serp => quote!(rt::Serp),
    };
    match a.response.shape {
        Shape::Array => quote!(::std::vec::Vec<#payload>),
        Shape::Single => payload,
        Shape::Map { .. } => quote!(rt::ByKey<#payload>),
    }
}

/// The offset and limit parameters of a paged action ([`Action::paging`]),
/// with the type of its rows.
fn paging(a: &Action) -> Option<(TokenStream, &Param, &Param)> {
    let (offset, limit) = a.paging()?;
    let Payload::Record { type_name, .. } = &a.response.payload else {
        return None;
    };
    let row = format_ident!("{}", type_name);
    Some((quote!(types::#row), offset, limit))
}

/// The builder's bulk methods, for its docs.
fn bulk_doc(a: &Action) -> &'static str {
    match (a.batch_param().is_some(), a.paging().is_some()) {
        (true, _) => {
            "For more values than one request takes, [`send_all`](Self::send_all) runs a batched job."
        }
        (_, true) => "[`pages`](Self::pages) streams the rows page by page.",
        _ => "",
    }
}

/// `send_all` of a batchable action: any number of values as one batched job.
fn send_all(a: &Action, output: &TokenStream) -> Option<TokenStream> {
    let param = a.batch_param()?;
    let max = param.max_items.as_ref()?.value;
    let merged = match a.response.shape {
        Shape::Map { .. } => "merged into one map",
        _ => "merged into one result with the rows in input order (matched by their key field)",
    };
    let repeated = param
        .compare
        .as_ref()
        .map_or_else(|| "repeated values".to_owned(), Compare::repeated);
    let docs = doc(&[
        &format!(
            "Send any number of `{}` values as one batched job: {repeated} are one input, sent once (as first given), the rest split into the fewest requests of at most {max} values, sent under the rate limit, and {merged}; `result_rows` and `units_used` are summed over the requests.",
            param.wire
        ),
        "Every request is validated and the whole job's maximum cost checked against the budget before the first is sent. See [`Client::run`](rt::Client::run), which this runs with default options.",
        SEND_ERRORS,
        "A job that fails after some of its requests were answered gives a partial error ([`Error::into_partial`](rt::Error::into_partial)): the rows received, the values to send again and the cause.",
    ]);
    Some(quote! {
        #docs
        #[inline]
        pub fn send_all(self) -> impl ::core::future::Future<
            Output = ::core::result::Result<rt::Envelope<#output>, rt::Error>,
        > + ::core::marker::Send + 'static {
            let request = self.request();
            async move {
                let options = rt::RunOptions::new();
                let outcome = self.client.run::<#output>(request, options).await?;
                ::core::result::Result::Ok(outcome.envelope)
            }
        }
    })
}

/// `pages` of a paged action: its rows as a stream, page by page.
fn pages(a: &Action) -> Option<TokenStream> {
    let (row, offset, limit) = paging(a)?;
    let start = offset.default.as_deref().unwrap_or("0");
    let pinned: Vec<String> = a
        .rules
        .iter()
        .filter(|r| r.require == offset.wire && r.equal_to.is_some())
        .map(|r| {
            format!(
                "With `{}` = `{}` one page is fetched. {}",
                r.if_param, r.if_value, r.description
            )
        })
        .collect();
    let docs = doc(&[
        &format!(
            "Stream the rows page by page. Each request asks for `page_size` rows (this builder's `{limit}` is replaced; a last page asks only for what `max_rows` still allows), the first from this builder's `{offset}` (`{start}` when not set), each next one from where the previous ended. Paging stops when a page comes back short or `max_rows` rows have come (`None`: no cap).",
            limit = limit.wire,
            offset = offset.wire,
        ),
        &pinned.join(" "),
        "Before the first request every page is validated and, under a budget, the whole job's maximum cost is checked (a job with no cap is then refused); a refusal or a failed page is the last item. See [`Client::pages`](rt::Client::pages).",
    ]);
    Some(quote! {
        #docs
        #[inline]
        pub fn pages(
            self,
            page_size: i64,
            max_rows: ::core::option::Option<usize>,
        ) -> impl rt::Stream<Item = ::core::result::Result<#row, rt::Error>>
               + ::core::marker::Send
               + ::core::marker::Unpin
               + 'static {
            self.client.pages(self.request(), page_size, max_rows)
        }
    })
}

/// One required argument of the builder's example, as Rust source: a
/// plausible value by the parameter's type (a list of one value).
fn example_arg(spec: &Spec, p: &Param) -> String {
    let one = match &p.ty {
        ParamType::String => format!("{:?}", crate::plausible::text(&p.wire)),
        ParamType::Integer => p
            .default
            .clone()
            .unwrap_or_else(|| p.min.as_ref().map_or(1, |l| l.value.max(1)).to_string()),
        ParamType::Date => "seozoom::types::Date::new(2024, 5, 31)?".to_owned(),
        ParamType::Enum { type_name, values } => {
            let variant = spec
                .enums
                .iter()
                .find(|e| &e.type_name == type_name)
                .and_then(|e| e.values.iter().find(|v| Some(&v.wire) == values.first()))
                .map_or_else(|| "default()".to_owned(), |v| v.variant.clone());
            format!("seozoom::types::{type_name}::{variant}")
        }
    };
    if p.list { format!("[{one}]") } else { one }
}

/// The builder's `# Examples` section: its constructor with plausible
/// required arguments, then `send`. `no_run`: it needs a key.
fn example(spec: &Spec, a: &Action) -> String {
    let accessor = spec
        .groups
        .iter()
        .find(|g| g.wire == a.group)
        .map_or(a.group.as_str(), |g| g.rust.as_str());
    let args: Vec<String> = a
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| example_arg(spec, p))
        .collect();
    format!(
        "# Examples\n\n```no_run\n# async fn run(client: seozoom::Client) -> Result<(), Box<dyn std::error::Error>> {{\nlet answer = client.{accessor}().{method}({args}).send().await?;\nprintln!(\"{{}} units used, {{:?}} left\", answer.units_used, answer.units_remaining);\n# Ok(()) }}\n```",
        method = a.rust,
        args = args.join(", "),
    )
}

/// The `# Errors` section of a method that validates and sends.
const SEND_ERRORS: &str = "# Errors\n\nRefused before sending (nothing charged, [`Error::is_refused`](rt::Error::is_refused)) when a parameter breaks a limit or rule of the spec, or the call does not fit the budget or the rate limit in refuse mode; then failed when the service answers with an error, the transport fails, the answer does not decode, or the waits would pass [`ClientBuilder::max_wait`](rt::ClientBuilder::max_wait). [`Error::kind`](rt::Error::kind) says which, and [`Error::charged`](rt::Error::charged) what it cost.";

pub fn builder(spec: &Spec, a: &Action) -> TokenStream {
    let builder = format_ident!("{}", a.type_name);
    let operation = format_ident!("{}", a.const_name);
    let db = database_type(spec);
    let output = output_type(a);
    let fields = a.params.iter().map(|p| {
        let name = format_ident!("{}", p.rust);
        let (_, stored, _) = arg_type(p);
        if p.required {
            quote!(#name: #stored)
        } else {
            quote!(#name: ::core::option::Option<#stored>)
        }
    });
    let setters = a.params.iter().filter(|p| !p.required).map(|p| {
        let name = format_ident!("{}", p.rust);
        let (arg, _, convert) = arg_type(p);
        let default = p
            .default
            .as_ref()
            .map(|d| format!("When not set, `{d}` is sent."))
            .unwrap_or_default();
        let docs = doc(&[&param_doc(p), &default]);
        quote! {
            #docs
            pub fn #name(mut self, #name: #arg) -> Self {
                self.#name = ::core::option::Option::Some(#convert);
                self
            }
        }
    });
    let pushes = a.params.iter().map(|p| {
        let name = format_ident!("{}", p.rust);
        let wire = &p.wire;
        match (p.required, p.list) {
            (true, true) => quote!(request.list(#wire, &self.#name);),
            (true, false) => quote!(request.one(#wire, &self.#name);),
            (false, true) => quote! {
                if let ::core::option::Option::Some(values) = &self.#name {
                    request.list(#wire, values);
                }
            },
            (false, false) => quote! {
                if let ::core::option::Option::Some(value) = &self.#name {
                    request.one(#wire, value);
                }
            },
        }
    });
    let new_request = quote!(rt::Request::new(&operations::#operation, self.db.map(#db::as_str)));
    let request_body = if a.params.is_empty() {
        new_request
    } else {
        quote! {
            let mut request = #new_request;
            #(#pushes)*
            request
        }
    };
    let docs = doc(&[
        &format!(
            "Request builder for `{}` `{}`: {}",
            a.group, a.wire, a.description
        ),
        "Check it with [`request`](Self::request) and send it with [`send`](Self::send); every limit of the spec is checked before anything is sent.",
        bulk_doc(a),
        &example(spec, a),
    ]);
    let send_doc = doc(&[
        &format!("Validate, send and decode. {}", a.response.description),
        SEND_ERRORS,
    ]);
    // One request as given; one object that is not found is
    // `ErrorKind::NoData`, as a call of it is.
    let send_body = match a.response.shape {
        Shape::Single => quote! {
            let options = rt::RunOptions::one_request();
            let outcome = self.client.run::<::core::option::Option<#output>>(request, options).await?;
            outcome.found(&operations::#operation)
        },
        _ => quote! {
            let options = rt::RunOptions::one_request();
            let outcome = self.client.run::<#output>(request, options).await?;
            ::core::result::Result::Ok(outcome.envelope)
        },
    };
    let send_all = send_all(a, &output);
    let pages = pages(a);
    quote! {
        #docs
        #[derive(Debug, Clone)]
        #[must_use = "a request does nothing until it is sent"]
        pub struct #builder {
            client: rt::Client,
            db: ::core::option::Option<#db>,
            #(#fields,)*
        }
        impl #builder {
            /// Query this country database instead of the client's default.
            pub fn db(mut self, db: #db) -> Self {
                self.db = ::core::option::Option::Some(db);
                self
            }
            #(#setters)*
            /// The generic request this builder describes (not yet validated).
            pub fn request(&self) -> rt::Request {
                #request_body
            }
            #send_doc
            #[inline]
            pub fn send(self) -> impl ::core::future::Future<
                Output = ::core::result::Result<rt::Envelope<#output>, rt::Error>,
            > + ::core::marker::Send + 'static {
                let request = self.request();
                async move { #send_body }
            }
            #send_all
            #pages
        }
    }
}
