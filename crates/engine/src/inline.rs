//! A list kept inline, in a fixed-size array with a length, for the collections whose
//! size the rules bound: cloning the game state then copies memory and allocates nothing.

use serde::de::{Error as _, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// Up to `N` items (`N` at most 255) in place; it reads as a slice. Serde sees a
/// sequence, as for a `Vec`, and refuses one longer than `N`.
#[derive(Copy)]
pub struct InlineVec<T: Copy + Default, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> InlineVec<T, N> {
    /// The capacity.
    pub const CAPACITY: usize = N;

    /// An empty list.
    pub fn new() -> Self {
        const { assert!(N <= u8::MAX as usize) };
        InlineVec {
            len: 0,
            items: [T::default(); N],
        }
    }

    /// The items as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    /// The items as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }

    /// Whether no more item fits.
    pub fn is_full(&self) -> bool {
        self.len as usize == N
    }

    /// Adds `x` at the end, or gives it back if the list is full.
    ///
    /// # Errors
    /// `x`, when the list already holds `N` items.
    pub fn try_push(&mut self, x: T) -> Result<(), T> {
        if self.is_full() {
            return Err(x);
        }
        self.items[self.len as usize] = x;
        self.len += 1;
        Ok(())
    }

    /// Adds `x` at the end.
    ///
    /// # Panics
    /// If the list is full: the rules bound every such list, so that is a bug.
    pub fn push(&mut self, x: T) {
        assert!(!self.is_full(), "more than {N} items in an inline list");
        self.items[self.len as usize] = x;
        self.len += 1;
    }

    /// Takes the last item.
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len as usize])
    }

    /// Takes the item at `i`, shifting the later ones down.
    ///
    /// # Panics
    /// If `i` is out of bounds.
    pub fn remove(&mut self, i: usize) -> T {
        let len = self.len as usize;
        assert!(i < len, "index {i} out of an inline list of {len}");
        let x = self.items[i];
        self.items.copy_within(i + 1..len, i);
        self.len -= 1;
        x
    }

    /// Puts `x` at `i`, shifting the later ones up.
    ///
    /// # Panics
    /// If `i` is past the end or the list is full.
    pub fn insert(&mut self, i: usize, x: T) {
        let len = self.len as usize;
        assert!(i <= len, "index {i} past an inline list of {len}");
        assert!(!self.is_full(), "more than {N} items in an inline list");
        self.items.copy_within(i..len, i + 1);
        self.items[i] = x;
        self.len += 1;
    }

    /// Keeps the items for which `f` holds, in order.
    pub fn retain(&mut self, mut f: impl FnMut(&T) -> bool) {
        let mut kept = 0;
        for i in 0..self.len as usize {
            let x = self.items[i];
            if f(&x) {
                self.items[kept] = x;
                kept += 1;
            }
        }
        self.len = kept as u8;
    }

    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `n` items.
    pub fn truncate(&mut self, n: usize) {
        if n < self.len as usize {
            self.len = n as u8;
        }
    }

    /// Adds the items of `xs` at the end.
    ///
    /// # Panics
    /// If they do not fit.
    pub fn extend_from_slice(&mut self, xs: &[T]) {
        let len = self.len as usize;
        assert!(xs.len() <= N - len, "more than {N} items in an inline list");
        self.items[len..len + xs.len()].copy_from_slice(xs);
        self.len += xs.len() as u8;
    }

    /// Moves every item of `other` to the end of this list.
    ///
    /// # Panics
    /// If they do not fit.
    pub fn append(&mut self, other: &mut Self) {
        self.extend_from_slice(other.as_slice());
        other.clear();
    }

    /// Splits off the items from `at` on.
    ///
    /// # Panics
    /// If `at` is past the end.
    pub fn split_off(&mut self, at: usize) -> Self {
        let len = self.len as usize;
        assert!(at <= len, "index {at} past an inline list of {len}");
        let mut tail = Self::new();
        tail.extend_from_slice(&self.items[at..len]);
        self.len = at as u8;
        tail
    }
}

impl<T: Copy + Default, const N: usize> Clone for InlineVec<T, N> {
    /// A copy of the whole array: one memcpy, however few items are used.
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Copy + Default, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for InlineVec<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for InlineVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq<Vec<T>> for InlineVec<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq<[T]> for InlineVec<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Copy + Default + PartialEq, const N: usize, const K: usize> PartialEq<[T; K]>
    for InlineVec<T, N>
{
    fn eq(&self, other: &[T; K]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default, const N: usize> Extend<T> for InlineVec<T, N> {
    /// # Panics
    /// If the items do not fit.
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<'a, T: Copy + Default + 'a, const N: usize> Extend<&'a T> for InlineVec<T, N> {
    /// # Panics
    /// If the items do not fit.
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        for x in iter {
            self.push(*x);
        }
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for InlineVec<T, N> {
    /// # Panics
    /// If the items do not fit.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<T: Copy + Default, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len as usize)
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a mut InlineVec<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T: Copy + Default + Serialize, const N: usize> Serialize for InlineVec<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>, const N: usize> Deserialize<'de>
    for InlineVec<T, N>
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Seq<T, const N: usize>(PhantomData<T>);

        impl<'de, T: Copy + Default + Deserialize<'de>, const N: usize> Visitor<'de> for Seq<T, N> {
            type Value = InlineVec<T, N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {N} items")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut v = InlineVec::new();
                while let Some(x) = seq.next_element()? {
                    if v.try_push(x).is_err() {
                        return Err(A::Error::custom(format_args!(
                            "a list of more than {N} items, where the rules allow at most {N}"
                        )));
                    }
                }
                Ok(v)
            }
        }

        d.deserialize_seq(Seq::<T, N>(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::InlineVec;

    #[test]
    fn behaves_as_a_vec() {
        let mut v: InlineVec<u8, 4> = InlineVec::new();
        v.extend([1, 2, 3]);
        assert_eq!(v.remove(0), 1);
        v.insert(1, 9);
        assert_eq!(v, vec![2, 9, 3]);
        v.retain(|&x| x != 9);
        assert_eq!(v.as_slice(), &[2, 3]);
        let tail = v.split_off(1);
        assert_eq!((v.as_slice(), tail.as_slice()), (&[2][..], &[3][..]));
        assert_eq!(v.pop(), Some(2));
        assert!(v.is_empty());
    }

    #[test]
    fn serde_as_a_list_and_refuses_too_many() {
        let v: InlineVec<u8, 3> = serde_json::from_str("[1,2,3]").unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), "[1,2,3]");
        let e = serde_json::from_str::<InlineVec<u8, 3>>("[1,2,3,4]").unwrap_err();
        assert!(e.to_string().contains("more than 3"), "{e}");
    }
}
