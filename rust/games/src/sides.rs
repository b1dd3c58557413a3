//! [`two_sides!`](crate::two_sides): a game's two sides as an enum, written once.

/// Defines a game's side enum: two variants, the first player's (0) and the second's (1), with `ALL`
/// (first player first), `flip` and `index`. The game names the type and the variants and documents
/// each; it adds its own methods in an `impl` of its own.
///
/// ```
/// camelpy_games::two_sides! {
///     /// A side of the heap game.
///     pub enum Side {
///         /// Takes first.
///         Alice,
///         /// Takes second.
///         Bob,
///     }
/// }
/// assert_eq!(Side::ALL, [Side::Alice, Side::Bob]);
/// assert_eq!((Side::Alice.flip(), Side::Bob.index()), (Side::Bob, 1));
/// ```
#[macro_export]
macro_rules! two_sides {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(#[$first_meta:meta])* $first:ident,
            $(#[$second_meta:meta])* $second:ident $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        $vis enum $name {
            $(#[$first_meta])*
            $first = 0,
            $(#[$second_meta])*
            $second = 1,
        }

        impl $name {
            /// Both sides, the first player first.
            pub const ALL: [$name; 2] = [$name::$first, $name::$second];

            /// The other side.
            #[inline]
            pub const fn flip(self) -> $name {
                match self {
                    $name::$first => $name::$second,
                    $name::$second => $name::$first,
                }
            }

            /// 0 for the first player, 1 for the second.
            #[inline]
            pub const fn index(self) -> usize {
                self as usize
            }
        }
    };
}
