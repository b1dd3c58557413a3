//! `simple_enum!`: every small enum gets `NUM`, `ALL`, `index` and `try_index` (exported: the game crates'
//! small enums use it too).

/// Declares a fieldless `#[repr(u8)]` enum whose variants are numbered from 0, with `NUM` (the number of
/// variants), `ALL` (every variant in order), `index()` and `try_index()`.
#[macro_export]
macro_rules! simple_enum {
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident { $($(#[$vattr:meta])* $variant:ident),+ $(,)? }
    ) => {
        $(#[$attr])*
        // The variants' names are their documentation (`Square::E4`, `PieceType::Knight`).
        #[allow(missing_docs)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        $vis enum $name { $($(#[$vattr])* $variant),+ }

        impl $name {
            /// The number of variants.
            pub const NUM: usize = [$(Self::$variant),+].len();
            /// Every variant, in index order.
            pub const ALL: [Self; Self::NUM] = [$(Self::$variant),+];

            /// The variant's index, from 0 to `NUM - 1`.
            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The variant with this index, or `None` if `index >= NUM`.
            #[inline(always)]
            pub const fn try_index(index: usize) -> Option<Self> {
                if index < Self::NUM { Some(Self::ALL[index]) } else { None }
            }

            /// The variant with this index; panics if `index >= NUM`.
            #[inline(always)]
            pub const fn index_const(index: usize) -> Self {
                Self::ALL[index]
            }
        }
    };
}
