//! Named settings as table rows: a name, the kind of value with its range,
//! a reader and a writer on the value that holds them. The rules
//! ([`crate::rules::Rules::SETTINGS`]) and the engine's options are such
//! tables; one row both announces a setting and applies it, so a setting
//! cannot be announced without being settable.

use std::fmt;

/// What a setting holds and how it is read and written on a `T`.
pub enum Field<T> {
    /// `true` or `false`.
    Check {
        /// The current value.
        get: fn(&T) -> bool,
        /// Stores a value.
        set: fn(&mut T, bool),
    },
    /// An integer from `min` to `max`.
    Spin {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// The current value.
        get: fn(&T) -> i64,
        /// Stores a value within the range.
        set: fn(&mut T, i64),
    },
    /// One of some names (matched without regard to case).
    Combo {
        /// The names, in announcement order.
        vars: &'static [&'static str],
        /// The current value's name.
        get: fn(&T) -> &'static str,
        /// Stores the value at this index of `vars`.
        set: fn(&mut T, usize),
    },
    /// Free text; `<empty>` stands for the empty string.
    Str {
        /// The current value.
        get: fn(&T) -> String,
        /// Stores a value, or says what is expected instead.
        set: fn(&mut T, &str) -> Result<(), String>,
    },
}

/// A named setting of a `T`.
pub struct Setting<T> {
    /// The name, as announced.
    pub name: &'static str,
    /// The value's kind, range and accessors.
    pub field: Field<T>,
}

impl<T> Setting<T> {
    /// Whether `name` names this setting (without regard to case).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }

    /// Parses `raw` and stores it in `target`.
    ///
    /// # Errors
    /// [`BadValue`], saying what is expected instead (`an integer from 1
    /// to 256`, `true or false`, the combo's names); `target` is then
    /// unchanged.
    pub fn apply(&self, target: &mut T, raw: &str) -> Result<(), BadValue> {
        self.parse_into(target, raw.trim()).map_err(|expected| BadValue {
            name: self.name,
            value: raw.to_owned(),
            expected,
        })
    }

    fn parse_into(&self, target: &mut T, raw: &str) -> Result<(), String> {
        match &self.field {
            Field::Check { set, .. } => match raw.to_ascii_lowercase().as_str() {
                "true" => set(target, true),
                "false" => set(target, false),
                _ => return Err("true or false".into()),
            },
            Field::Spin { min, max, set, .. } => match raw.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => set(target, v),
                _ => return Err(format!("an integer from {min} to {max}")),
            },
            Field::Combo { vars, set, .. } => match vars.iter().position(|v| v.eq_ignore_ascii_case(raw)) {
                Some(i) => set(target, i),
                None => return Err(vars.join(", ")),
            },
            Field::Str { set, .. } => set(target, if raw == "<empty>" { "" } else { raw })?,
        }
        Ok(())
    }

    /// The current value as text that [`Setting::apply`] accepts.
    pub fn text(&self, target: &T) -> String {
        match &self.field {
            Field::Check { get, .. } => get(target).to_string(),
            Field::Spin { get, .. } => get(target).to_string(),
            Field::Combo { get, .. } => get(target).to_owned(),
            Field::Str { get, .. } => {
                let s = get(target);
                if s.is_empty() { "<empty>".to_owned() } else { s }
            }
        }
    }
}

/// A value a setting does not take.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BadValue {
    /// The setting's name.
    pub name: &'static str,
    /// The value given.
    pub value: String,
    /// What is expected.
    pub expected: String,
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad value '{}' for {} (expected {})", self.value, self.name, self.expected)
    }
}

impl std::error::Error for BadValue {}

/// The names of an enum's values, in the order of its `ALL` (which must
/// be an array with a `const fn name(self) -> &'static str`), as a constant
/// array for a [`Field::Combo`].
macro_rules! names {
    ($t:ty) => {{
        const N: usize = <$t>::ALL.len();
        const NAMES: [&str; N] = {
            let mut names = [""; N];
            let mut i = 0;
            while i < N {
                names[i] = <$t>::ALL[i].name();
                i += 1;
            }
            names
        };
        &NAMES
    }};
}
pub(crate) use names;

/// A [`Field::Combo`] for the field `$field` of an enum type `$t` (with
/// `ALL` and `name` as for [`names!`]): its names, its reader and its writer
/// all come from `$t::ALL`.
macro_rules! combo {
    ($t:ty, $field:ident) => {
        $crate::setting::Field::Combo {
            vars: $crate::setting::names!($t),
            get: |x| x.$field.name(),
            set: |x, i| x.$field = <$t>::ALL[i],
        }
    };
}
pub(crate) use combo;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct S {
        on: bool,
        n: i64,
        pick: usize,
        text: String,
    }

    const ROWS: [Setting<S>; 4] = [
        Setting { name: "On", field: Field::Check { get: |s| s.on, set: |s, v| s.on = v } },
        Setting { name: "N", field: Field::Spin { min: -2, max: 5, get: |s| s.n, set: |s, v| s.n = v } },
        Setting {
            name: "Pick",
            field: Field::Combo { vars: &["one", "two"], get: |s| ["one", "two"][s.pick], set: |s, i| s.pick = i },
        },
        Setting {
            name: "Text",
            field: Field::Str {
                get: |s| s.text.clone(),
                set: |s, v| {
                    if v.contains('!') {
                        return Err("no '!'".into());
                    }
                    s.text = v.to_owned();
                    Ok(())
                },
            },
        },
    ];

    #[test]
    fn values_parse_and_round_trip() {
        let mut s = S::default();
        for (row, raw, text) in [(0, " TRUE ", "true"), (1, "-2", "-2"), (2, "Two", "two"), (3, " a b ", "a b")] {
            ROWS[row].apply(&mut s, raw).unwrap();
            assert_eq!(ROWS[row].text(&s), text);
            ROWS[row].apply(&mut s, text).unwrap();
            assert_eq!(ROWS[row].text(&s), text);
        }
        ROWS[3].apply(&mut s, "<empty>").unwrap();
        assert_eq!((s.text.as_str(), ROWS[3].text(&s).as_str()), ("", "<empty>"));
    }

    #[test]
    fn bad_values_say_what_is_expected_and_change_nothing() {
        let mut s = S::default();
        let expected = |row: usize, raw: &str| ROWS[row].apply(&mut S::default(), raw).unwrap_err().expected;
        assert_eq!(expected(0, "yes"), "true or false");
        assert_eq!(expected(1, "6"), "an integer from -2 to 5");
        assert_eq!(expected(1, "x"), "an integer from -2 to 5");
        assert_eq!(expected(2, "three"), "one, two");
        assert_eq!(expected(3, "hi!"), "no '!'");
        let e = ROWS[1].apply(&mut s, " 7 ").unwrap_err();
        assert_eq!(e.to_string(), "bad value ' 7 ' for N (expected an integer from -2 to 5)");
        assert!(!s.on && s.n == 0 && s.pick == 0 && s.text.is_empty());
        assert!(ROWS[2].is("PICK") && !ROWS[2].is("Pic"));
    }
}
