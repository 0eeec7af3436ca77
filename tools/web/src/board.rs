//! What the page needs to draw the board and offer the rules, read from the
//! library's tables (so the page holds no copy of the topology or the
//! presets): the points and their kinds, the road and railway links, the
//! presets and the rule settings.

use std::collections::BTreeMap;

use luzhanqi::board::topology::{ADJACENT, PointKind, RAIL_ADJACENT};
use luzhanqi::setting::Field;
use luzhanqi::{Point, Rules, Variant};
use serde::Serialize;

/// One point of the board.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PointInfo {
    /// `a1` .. `e12`.
    pub name: String,
    /// `post`, `camp` or `hq`.
    pub kind: &'static str,
}

/// A link between two points.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LinkInfo {
    /// One end.
    pub a: String,
    /// The other end.
    pub b: String,
    /// Railway (else road).
    pub rail: bool,
}

/// A rule setting the page offers, with its kind.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SettingInfo {
    /// The option name (`QuietLimit`).
    pub name: &'static str,
    /// `check`, `spin` or `combo`.
    pub kind: &'static str,
    /// Spin bounds.
    pub min: Option<i64>,
    /// Spin bounds.
    pub max: Option<i64>,
    /// Combo values.
    pub vars: Vec<&'static str>,
}

/// Sent to the page first.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct BoardInfo {
    /// The 60 points, `a1` first, in index order.
    pub points: Vec<PointInfo>,
    /// Every link once.
    pub links: Vec<LinkInfo>,
    /// The presets the page offers, in option order.
    pub variants: Vec<&'static str>,
    /// Each preset's value of every rule setting.
    pub presets: BTreeMap<&'static str, BTreeMap<&'static str, String>>,
    /// The rule settings.
    pub settings: Vec<SettingInfo>,
    /// This server's version.
    pub version: &'static str,
}

impl BoardInfo {
    /// The board and rules of the library.
    pub fn new() -> BoardInfo {
        let points = Point::all()
            .map(|p| PointInfo {
                name: p.to_string(),
                kind: match p.kind() {
                    PointKind::Post => "post",
                    PointKind::Camp => "camp",
                    PointKind::Hq => "hq",
                },
            })
            .collect();
        let mut links = Vec::new();
        for p in Point::all() {
            for q in ADJACENT[p.index()] {
                if q > p {
                    let rail = RAIL_ADJACENT[p.index()].contains(q);
                    links.push(LinkInfo { a: p.to_string(), b: q.to_string(), rail });
                }
            }
        }
        let presets = Variant::ALL
            .into_iter()
            .map(|v| {
                let rules = v.rules();
                let values = Rules::SETTINGS.iter().map(|s| (s.name, s.text(&rules))).collect();
                (v.name(), values)
            })
            .collect();
        let settings = Rules::SETTINGS
            .iter()
            .map(|s| {
                let (kind, min, max, vars) = match &s.field {
                    Field::Check { .. } => ("check", None, None, Vec::new()),
                    Field::Spin { min, max, .. } => ("spin", Some(*min), Some(*max), Vec::new()),
                    Field::Combo { vars, .. } => ("combo", None, None, vars.to_vec()),
                    Field::Str { .. } => ("string", None, None, Vec::new()),
                };
                SettingInfo { name: s.name, kind, min, max, vars }
            })
            .collect();
        BoardInfo {
            points,
            links,
            variants: Variant::ALL.iter().map(|v| v.name()).collect(),
            presets,
            settings,
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

impl Default for BoardInfo {
    fn default() -> BoardInfo {
        BoardInfo::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_its_points_links_and_presets() {
        let b = BoardInfo::new();
        assert_eq!(b.points.len(), 60);
        assert_eq!((b.points[0].name.as_str(), b.points[0].kind), ("a1", "post"));
        assert_eq!((b.points[1].name.as_str(), b.points[1].kind), ("b1", "hq"));
        assert_eq!((b.points[12].name.as_str(), b.points[12].kind), ("c3", "post"));
        assert_eq!((b.points[11].name.as_str(), b.points[11].kind), ("b3", "camp"));
        let rails = b.links.iter().filter(|l| l.rail).count();
        assert_eq!((b.links.len(), rails), (luzhanqi::board::topology::link_count(), 35));
        assert!(!b.links.iter().any(|l| l.a == "b6" && l.b == "b7"), "the mountains cut b6-b7");
        assert!(b.links.iter().any(|l| l.a == "a6" && l.b == "a7" && l.rail));
        assert_eq!(b.presets["ccgc"]["QuietLimit"], "31");
        assert_eq!(b.presets["classic"]["MarshalRevealsFlag"], "true");
        assert!(b.settings.iter().any(|s| s.name == "QuietResult" && s.vars.contains(&"draw")));
    }
}
