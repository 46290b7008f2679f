//! Text: the vocabulary of generated values (keywords, domains, URLs, labels),
//! what a database implies (language, search-engine extension), and which
//! inputs the sandbox treats as unknown.

use super::seed::Seed;

/// Keyword words by language; `it` for a language without a list.
const WORDS: &[(&str, &[&str])] = &[
    (
        "it",
        &[
            "scarpe",
            "running",
            "offerte",
            "ricette",
            "pasta",
            "vacanze",
            "mare",
            "hotel",
            "roma",
            "milano",
            "caffè",
            "giardino",
            "bici",
            "mutuo",
            "assicurazione",
            "lavoro",
            "corso",
            "inglese",
            "migliori",
            "economici",
            "come",
            "fare",
            "prezzo",
            "online",
        ],
    ),
    (
        "en",
        &[
            "shoes",
            "running",
            "deals",
            "recipes",
            "holiday",
            "hotel",
            "london",
            "garden",
            "bike",
            "mortgage",
            "insurance",
            "jobs",
            "course",
            "best",
            "cheap",
            "how",
            "to",
            "price",
            "online",
            "review",
            "near",
            "me",
            "free",
            "guide",
        ],
    ),
    (
        "es",
        &[
            "zapatillas",
            "ofertas",
            "recetas",
            "vacaciones",
            "playa",
            "hotel",
            "madrid",
            "jardín",
            "bicicleta",
            "hipoteca",
            "seguro",
            "trabajo",
            "curso",
            "mejores",
            "baratos",
            "cómo",
            "precio",
            "online",
            "guía",
            "niños",
        ],
    ),
    (
        "fr",
        &[
            "chaussures",
            "offres",
            "recettes",
            "vacances",
            "plage",
            "hôtel",
            "paris",
            "jardin",
            "vélo",
            "prêt",
            "assurance",
            "emploi",
            "cours",
            "meilleurs",
            "pas",
            "cher",
            "comment",
            "prix",
            "en",
            "ligne",
            "guide",
        ],
    ),
    (
        "de",
        &[
            "schuhe",
            "angebote",
            "rezepte",
            "urlaub",
            "strand",
            "hotel",
            "berlin",
            "garten",
            "fahrrad",
            "kredit",
            "versicherung",
            "jobs",
            "kurs",
            "beste",
            "günstig",
            "wie",
            "preis",
            "online",
            "ratgeber",
            "kinder",
        ],
    ),
];

/// ASCII words for host names and URL paths.
const SITE_WORDS: &[&str] = &[
    "casa", "web", "blog", "shop", "info", "mondo", "rete", "top", "news", "guida", "viaggi",
    "tech", "salute", "moda", "cucina", "sport", "green", "smart", "city", "store",
];

/// Localities for `localcode`-like fields.
const CITIES: &[&str] = &[
    "Milano",
    "Roma",
    "Napoli",
    "Torino",
    "Madrid",
    "Barcelona",
    "Paris",
    "Lyon",
    "Berlin",
    "Munich",
    "London",
    "Manchester",
];

/// Databases whose language code or search-engine extension is not the
/// database name itself (the reference: "for `uk` the default is `.co.uk`").
const LOCALES: &[(&str, &str, &str)] = &[("uk", "en", "co.uk")];

/// The language code of a database (`uk` -> `en`, otherwise the database name).
pub(super) fn lang(db: &str) -> &str {
    LOCALES
        .iter()
        .find(|(d, _, _)| *d == db)
        .map_or(db, |(_, lang, _)| lang)
}

/// The top-level domain of a database's search engine (`uk` -> `co.uk`).
pub(super) fn tld(db: &str) -> &str {
    LOCALES
        .iter()
        .find(|(d, _, _)| *d == db)
        .map_or(db, |(_, _, tld)| tld)
}

/// The search-engine extension of a database, with its dot (`.it`, `.co.uk`).
pub(super) fn google_ext(db: &str) -> String {
    format!(".{}", tld(db))
}

fn words(lang: &str) -> &'static [&'static str] {
    WORDS
        .iter()
        .find(|(l, _)| *l == lang)
        .or_else(|| WORDS.first())
        .map_or(&[], |(_, words)| words)
}

/// `count` words of `vocabulary`, joined by `sep`.
fn phrase(seed: Seed, vocabulary: &[&str], count: u64, sep: &str) -> String {
    (0..count)
        .map(|i| seed.nth(i).pick(vocabulary, "seo"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// A search phrase of one to four words in the database's language.
pub(super) fn keyword(seed: Seed, lang: &str) -> String {
    let count = 1 + seed.child("words").below(4);
    phrase(seed, words(lang), count, " ")
}

/// A single word in the database's language.
pub(super) fn word(seed: Seed, lang: &str) -> String {
    phrase(seed, words(lang), 1, "")
}

/// A label in title case (`Scarpe Running`).
pub(super) fn label(seed: Seed, lang: &str) -> String {
    let count = 1 + seed.child("words").below(3);
    phrase(seed, words(lang), count, " ")
        .split(' ')
        .map(title_case)
        .collect::<Vec<_>>()
        .join(" ")
}

fn title_case(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// An upper-case, underscore-separated label (`SHOPPING_FASHION`).
pub(super) fn constant(seed: Seed) -> String {
    let count = 1 + seed.child("words").below(2);
    phrase(seed, SITE_WORDS, count, "_").to_uppercase()
}

/// A locality: empty for most rows, as the service sends when there is none.
pub(super) fn locality(seed: Seed) -> String {
    if seed.one_in(5) {
        seed.child("city").pick(CITIES, "").to_owned()
    } else {
        String::new()
    }
}

/// A host name under a database's top-level domain (`www.casaweb.it`).
pub(super) fn host(seed: Seed, db: &str) -> String {
    let name = phrase(seed, SITE_WORDS, 2, "");
    let www = if seed.child("www").one_in(2) {
        "www."
    } else {
        ""
    };
    format!("{www}{name}.{}", tld(db))
}

/// An https URL on `host` (`https://www.casaweb.it/guida/scarpe-running-12/`).
pub(super) fn url(seed: Seed, host: &str) -> String {
    let section = seed.child("section").pick(SITE_WORDS, "blog");
    let depth = 1 + seed.child("depth").below(3);
    let slug = phrase(seed.child("slug"), SITE_WORDS, depth, "-");
    match seed.child("shape").below(4) {
        0 => format!("https://{host}/"),
        1 => format!("https://{host}/{slug}/"),
        2 => format!(
            "https://{host}/{section}/{slug}-{}/",
            seed.child("id").below(1000)
        ),
        _ => format!("https://{host}/{section}/{slug}.html"),
    }
}

/// A search-result URL; about one in four carries a query string whose `&` is
/// written `&amp;`, as the service sends SERP URLs.
pub(super) fn serp_url(seed: Seed, db: &str, with_query: bool) -> String {
    let base = url(seed.child("url"), &host(seed.child("host"), db));
    if !with_query {
        return base;
    }
    format!(
        "{base}?id={}&amp;ref={}",
        seed.child("qid").below(10_000),
        seed.child("ref").pick(SITE_WORDS, "seo")
    )
}

/// The host of a domain or URL input (`https://www.example.it/a` ->
/// `www.example.it`), or `None` when the input does not look like one (a keyword).
pub(super) fn host_of(input: &str) -> Option<String> {
    let text = input.trim();
    let lower = text.to_ascii_lowercase();
    let rest = ["https://", "http://", "//"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme))
        .unwrap_or(&lower);
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next().unwrap_or_default();
    let looks_like_host = host.contains('.')
        && !host.starts_with('.')
        && host
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'));
    looks_like_host.then(|| host.trim_end_matches('.').to_owned())
}

/// Whether the service would know nothing about this input: a domain or URL
/// whose host is under `.invalid` (RFC 2606), or anything starting with `zzz`.
pub(super) fn is_unknown(input: &str) -> bool {
    let under_invalid = host_of(input).is_some_and(|h| h == "invalid" || h.ends_with(".invalid"));
    under_invalid || input.trim().to_lowercase().starts_with("zzz")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_inputs() {
        assert_eq!(host_of("example.it").as_deref(), Some("example.it"));
        assert_eq!(
            host_of("HTTPS://www.Example.it:443/a/b?c=d").as_deref(),
            Some("www.example.it")
        );
        assert_eq!(host_of("scarpe running"), None);
        assert_eq!(host_of("caffè"), None);
        assert_eq!(host_of(""), None);
    }

    #[test]
    fn unknown_inputs() {
        assert!(is_unknown("shop.invalid"));
        assert!(is_unknown("https://www.shop.invalid/page"));
        assert!(is_unknown("zzz nothing"));
        assert!(is_unknown("ZZZtop"));
        assert!(!is_unknown("example.it"));
        assert!(!is_unknown("invalid example"));
    }

    #[test]
    fn locales() {
        assert_eq!((lang("it"), google_ext("it")), ("it", ".it".to_owned()));
        assert_eq!((lang("uk"), google_ext("uk")), ("en", ".co.uk".to_owned()));
        assert!(!keyword(Seed::root(), "xx").is_empty());
    }
}
