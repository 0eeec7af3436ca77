//! Colours, the twelve kinds of piece and how many of each a side has
//! (RULES.md §2).

use std::fmt;

/// One of the two armies. Red owns ranks 1-6 and Blue ranks 7-12.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Colour {
    /// Red (`r`), rank 1 is its back row.
    Red = 0,
    /// Blue (`b`), rank 12 is its back row.
    Blue = 1,
}

impl Colour {
    /// Both colours, Red first.
    pub const BOTH: [Colour; 2] = [Colour::Red, Colour::Blue];

    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Colour {
        match self {
            Colour::Red => Colour::Blue,
            Colour::Blue => Colour::Red,
        }
    }

    /// 0 for Red, 1 for Blue.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with index 0 or 1.
    #[inline]
    pub const fn from_index(i: usize) -> Colour {
        if i == 0 { Colour::Red } else { Colour::Blue }
    }

    /// The notation letter: `r` or `b`.
    pub const fn to_char(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Blue => 'b',
        }
    }

    /// Reads a notation letter.
    pub const fn from_char(c: char) -> Option<Colour> {
        match c {
            'r' => Some(Colour::Red),
            'b' => Some(Colour::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
        })
    }
}

/// The twelve kinds of piece. The discriminant of a ranked officer is its
/// rank minus one, so the Engineer (rank 1) is 0 and the Marshal (rank 9) is 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// 工兵, rank 1: the only piece that turns on the railway; clears mines.
    Engineer = 0,
    /// 排长, rank 2.
    Lieutenant = 1,
    /// 连长, rank 3.
    Captain = 2,
    /// 营长, rank 4.
    Major = 3,
    /// 团长, rank 5.
    Colonel = 4,
    /// 旅长, rank 6.
    Brigadier = 5,
    /// 师长, rank 7.
    MajorGeneral = 6,
    /// 军长, rank 8.
    General = 7,
    /// 司令, rank 9.
    Marshal = 8,
    /// 炸弹: removes itself and whatever it meets.
    Bomb = 9,
    /// 地雷: never moves; kills ranked attackers other than the Engineer.
    Mine = 10,
    /// 军旗: never moves; its capture ends the game.
    Flag = 11,
}

/// Number of kinds.
pub const NUM_KINDS: usize = 12;

/// Pieces per side.
pub const PIECES_PER_SIDE: u8 = 25;

impl Kind {
    /// All kinds, in discriminant order.
    pub const ALL: [Kind; NUM_KINDS] = [
        Kind::Engineer,
        Kind::Lieutenant,
        Kind::Captain,
        Kind::Major,
        Kind::Colonel,
        Kind::Brigadier,
        Kind::MajorGeneral,
        Kind::General,
        Kind::Marshal,
        Kind::Bomb,
        Kind::Mine,
        Kind::Flag,
    ];

    /// 0..12.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index, if below 12.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Kind> {
        if i < NUM_KINDS { Some(Kind::ALL[i]) } else { None }
    }

    /// The officer's rank 1..=9, or `None` for bomb, mine and flag.
    #[inline]
    pub const fn rank(self) -> Option<u8> {
        if (self as u8) <= Kind::Marshal as u8 { Some(self as u8 + 1) } else { None }
    }

    /// How many of this kind each side has.
    #[inline]
    pub const fn count(self) -> u8 {
        match self {
            Kind::Engineer | Kind::Lieutenant | Kind::Captain | Kind::Mine => 3,
            Kind::Major | Kind::Colonel | Kind::Brigadier | Kind::MajorGeneral | Kind::Bomb => 2,
            Kind::General | Kind::Marshal | Kind::Flag => 1,
        }
    }

    /// Whether pieces of this kind ever move (mines and flags never do).
    #[inline]
    pub const fn is_movable(self) -> bool {
        !matches!(self, Kind::Mine | Kind::Flag)
    }

    /// The notation character: `1`-`9`, `B`, `M` or `F`.
    pub const fn to_char(self) -> char {
        match self {
            Kind::Bomb => 'B',
            Kind::Mine => 'M',
            Kind::Flag => 'F',
            _ => (b'1' + self as u8) as char,
        }
    }

    /// Reads a notation character.
    pub const fn from_char(c: char) -> Option<Kind> {
        match c {
            '1'..='9' => Kind::from_index(c as usize - '1' as usize),
            'B' => Some(Kind::Bomb),
            'M' => Some(Kind::Mine),
            'F' => Some(Kind::Flag),
            _ => None,
        }
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Engineer => "Engineer",
            Kind::Lieutenant => "Lieutenant",
            Kind::Captain => "Captain",
            Kind::Major => "Major",
            Kind::Colonel => "Colonel",
            Kind::Brigadier => "Brigadier",
            Kind::MajorGeneral => "Major general",
            Kind::General => "General",
            Kind::Marshal => "Marshal",
            Kind::Bomb => "Bomb",
            Kind::Mine => "Landmine",
            Kind::Flag => "Flag",
        }
    }
}

/// The full army of one side, as counts per kind.
pub const ARMY: [u8; NUM_KINDS] = {
    let mut a = [0u8; NUM_KINDS];
    let mut i = 0;
    while i < NUM_KINDS {
        a[i] = Kind::ALL[i].count();
        i += 1;
    }
    a
};

/// A piece whose colour is known; its kind may be unknown (`r?`), as the
/// enemy's pieces are in `classic`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its army.
    pub colour: Colour,
    /// Its kind, `None` when the viewer does not know it.
    pub kind: Option<Kind>,
}

impl Piece {
    /// A piece of known kind.
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece { colour, kind: Some(kind) }
    }

    /// A piece of known colour and unknown kind.
    pub const fn unknown(colour: Colour) -> Piece {
        Piece { colour, kind: None }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.kind.map_or('?', Kind::to_char);
        write!(f, "{}{}", self.colour.to_char(), k)
    }
}
