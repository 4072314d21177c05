//! The fixed handicap points of GTP 2 §4.1.1, as display coordinates.

/// The most fixed handicap stones a `size × size` board takes: 9 on odd boards from 9×9,
/// 4 on 7×7 and on even boards (no centre point), none below 7×7.
pub fn max_fixed(size: usize) -> usize {
    match size {
        0..=6 => 0,
        7 => 4,
        _ if size.is_multiple_of(2) => 4,
        _ => 9,
    }
}

/// The points of `stones` fixed handicap stones on a `size × size` board, in the order
/// GTP lists them; `None` when that many are not allowed (fewer than 2, more than
/// [`max_fixed`]).
pub fn fixed_points(size: usize, stones: usize) -> Option<Vec<(usize, usize)>> {
    if stones < 2 || stones > max_fixed(size) {
        return None;
    }
    // The star points lie on the 3rd line from the edge below 13×13, on the 4th from it.
    let near = if size < 13 { 2 } else { 3 };
    let (low, mid, high) = (near, size / 2, size - 1 - near);
    // (x, y) with y from the top: bottom-left, top-right, top-left, bottom-right, then
    // centre, left, right, bottom, top.
    let (left, right, top, bottom) = (low, high, low, high);
    let corners = [(left, bottom), (right, top), (left, top), (right, bottom)];
    let centre = (mid, mid);
    let sides = [(left, mid), (right, mid)];
    let ends = [(mid, bottom), (mid, top)];
    let mut points: Vec<(usize, usize)> = corners[..stones.min(4)].to_vec();
    if stones >= 6 {
        points.extend(sides);
    }
    if stones >= 8 {
        points.extend(ends);
    }
    if stones % 2 == 1 && stones >= 5 {
        points.push(centre);
    }
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::vertex::vertex_name;

    fn names(size: usize, stones: usize) -> String {
        fixed_points(size, stones)
            .unwrap()
            .iter()
            .map(|&(x, y)| vertex_name(x, y, size))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn points_match_the_gtp_table() {
        assert_eq!(names(19, 2), "D4 Q16");
        assert_eq!(names(19, 3), "D4 Q16 D16");
        assert_eq!(names(19, 5), "D4 Q16 D16 Q4 K10");
        assert_eq!(names(19, 6), "D4 Q16 D16 Q4 D10 Q10");
        assert_eq!(names(19, 9), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
        assert_eq!(names(9, 4), "C3 G7 C7 G3");
        assert_eq!(names(9, 7), "C3 G7 C7 G3 C5 G5 E5");
        assert_eq!(names(7, 4), "C3 E5 C5 E3");
        assert_eq!(fixed_points(7, 5), None);
        assert_eq!(fixed_points(10, 5), None);
        assert_eq!(fixed_points(9, 1), None);
        assert_eq!(fixed_points(5, 2), None);
    }
}
