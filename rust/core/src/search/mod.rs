//! The search (being built for issue 4). So far: the staged move picker and the history tables it
//! orders quiet moves by. Iterative deepening, PVS, quiescence, limits and reporting will join them here.

pub mod history;
pub mod movepick;
