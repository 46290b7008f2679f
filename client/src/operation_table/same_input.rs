//! What counts as the same input: two values of a parameter are one input when
//! they are equal once folded as the spec says for that parameter
//! (`compare.fold`: surrounding spaces, letter case, a URL's host case, a
//! leading `www.`). Deduplication, the per-item cache, matching rows back to
//! inputs and the estimate all compare values this one way, so a job asked
//! for `Mutuo` and `mutuo` asks, pays, caches and answers once.

use std::borrow::Cow;
use std::collections::HashSet;

use super::{Operation, Param};

/// One way two values of a parameter may differ and still name the same
/// input (the spec's `compare.fold`). Folds apply in the order of the
/// variants, whatever order the spec lists them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fold {
    /// Spaces around the value do not count.
    Trim,
    /// Letter case does not count (Unicode lower case).
    Case,
    /// The letter case of a URL's scheme and host does not count; the rest
    /// of it (path, query) keeps its case.
    HostCase,
    /// A leading `www.` of the host (after any `scheme://`) does not count,
    /// unless the host is nothing else (`www.it`).
    Www,
    /// A `/` ending the value does not count (a domain has no path).
    TrailingSlash,
}

impl Param {
    /// `value` as it is compared with the parameter's other values: two
    /// values are the same input when these are equal. Borrowed when the
    /// folds change nothing (a parameter compared exactly has none).
    ///
    /// # Examples
    ///
    /// ```
    /// use seozoom::operation_table::Operation;
    ///
    /// let keywords = Operation::find("keywords", "metrics").unwrap();
    /// let keyword = keywords.batch_param().unwrap();
    /// assert_eq!(keyword.compared(" Mutuo "), keyword.compared("mutuo"));
    ///
    /// let domains = Operation::find("domains", "metrics").unwrap();
    /// let domain = domains.batch_param().unwrap();
    /// assert_eq!(domain.compared("WWW.Example.it"), "example.it");
    /// ```
    pub fn compared<'v>(&self, value: &'v str) -> Cow<'v, str> {
        folded(self.fold, value)
    }

    /// `values` without repeats: the first value given of each input, as
    /// given (it is what is sent), in their order.
    pub fn distinct(&self, values: &[String]) -> Vec<String> {
        let mut seen = HashSet::with_capacity(values.len());
        values
            .iter()
            .filter(|value| seen.insert(self.compared(value)))
            .cloned()
            .collect()
    }
}

impl Operation {
    /// A validated query as its answer is cached: the values of each
    /// parameter as compared ([`Param::compared`], each value of a list on
    /// its own), so that the same inputs find the same answer however they
    /// were written.
    pub(crate) fn compared_query(
        &self,
        query: &[(&'static str, String)],
        separator: char,
    ) -> Vec<(&'static str, String)> {
        query
            .iter()
            .map(|(wire, value)| match self.param(wire) {
                Some(param) if !param.fold.is_empty() => {
                    let values: Vec<Cow<'_, str>> =
                        value.split(separator).map(|v| param.compared(v)).collect();
                    (*wire, values.join(&separator.to_string()))
                }
                _ => (*wire, value.clone()),
            })
            .collect()
    }
}

/// `value` folded by `folds`.
pub(crate) fn folded<'v>(folds: &[Fold], value: &'v str) -> Cow<'v, str> {
    let mut text = Cow::Borrowed(value);
    if folds.contains(&Fold::Trim) && text.trim().len() != text.len() {
        text = Cow::Owned(text.trim().to_owned());
    }
    if folds.contains(&Fold::Case) {
        if text.chars().any(char::is_uppercase) {
            text = Cow::Owned(text.to_lowercase());
        }
    } else if folds.contains(&Fold::HostCase) {
        let end = host_end(&text);
        if text[..end].chars().any(char::is_uppercase) {
            text = Cow::Owned(format!("{}{}", text[..end].to_lowercase(), &text[end..]));
        }
    }
    if folds.contains(&Fold::Www)
        && let Some(at) = leading_www(&text)
    {
        text = Cow::Owned(format!("{}{}", &text[..at], &text[at + WWW.len()..]));
    }
    if folds.contains(&Fold::TrailingSlash) && text.len() > 1 && text.ends_with('/') {
        text = Cow::Owned(text[..text.len() - 1].to_owned());
    }
    text
}

const WWW: &str = "www.";

/// Where the host of a URL or domain starts: after `scheme://`, if any.
fn host_start(text: &str) -> usize {
    match text.find("://") {
        Some(at)
            if at > 0
                && text[..at]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) =>
        {
            at + 3
        }
        _ => 0,
    }
}

/// Where the host of a URL or domain ends: at its path, query or fragment.
fn host_end(text: &str) -> usize {
    let start = host_start(text);
    text[start..]
        .find(['/', '?', '#'])
        .map_or(text.len(), |at| start + at)
}

/// Where a leading `www.` of the host is (any case), when the host has
/// more than it (`www.example.it`, not `www.it`).
fn leading_www(text: &str) -> Option<usize> {
    let start = host_start(text);
    let host = &text[start..host_end(text)];
    let rest = host.get(WWW.len()..)?;
    (host[..WWW.len()].eq_ignore_ascii_case(WWW) && rest.contains('.')).then_some(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(folds: &[Fold], value: &str) -> String {
        folded(folds, value).into_owned()
    }

    #[test]
    fn each_fold_does_its_one_thing() {
        assert_eq!(fold(&[], " Mutuo "), " Mutuo ");
        assert_eq!(fold(&[Fold::Trim], " Mutuo  casa\t"), "Mutuo  casa");
        assert_eq!(fold(&[Fold::Case], "MUTUO Perché"), "mutuo perché");
        assert_eq!(
            fold(&[Fold::HostCase], "HTTPS://WWW.Example.IT/Path/A?Q=B"),
            "https://www.example.it/Path/A?Q=B"
        );
        assert_eq!(
            fold(&[Fold::HostCase], "Example.IT/Guide"),
            "example.it/Guide"
        );
        assert_eq!(fold(&[Fold::Www], "www.example.it"), "example.it");
        assert_eq!(
            fold(&[Fold::Www], "https://WWW.example.it/a"),
            "https://example.it/a"
        );
        assert_eq!(
            fold(&[Fold::Www], "www.it"),
            "www.it",
            "the host is nothing else"
        );
        assert_eq!(fold(&[Fold::Www], "wwwexample.it"), "wwwexample.it");
        assert_eq!(fold(&[Fold::Www], "example.it/www.a"), "example.it/www.a");
        assert_eq!(fold(&[Fold::TrailingSlash], "example.it/"), "example.it");
        assert_eq!(fold(&[Fold::TrailingSlash], "example.it//"), "example.it/");
        assert_eq!(fold(&[Fold::TrailingSlash], "/"), "/");
    }

    #[test]
    fn folds_apply_in_one_order_and_borrow_when_nothing_changes() {
        let all = [Fold::TrailingSlash, Fold::Www, Fold::Case, Fold::Trim];
        assert_eq!(fold(&all, "  WWW.Example.it/ "), "example.it");
        assert!(matches!(folded(&all, "example.it"), Cow::Borrowed(_)));
        assert!(matches!(folded(&[], " X "), Cow::Borrowed(_)));
    }
}
