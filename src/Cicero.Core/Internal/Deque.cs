// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;

namespace Cicero.Internal;

/// <summary>A growable ring buffer of values; not thread-safe.</summary>
internal sealed class Deque<T>
{
    private T[] _items;
    private int _head;
    private int _count;

    public Deque(int initialCapacity = 16)
    {
        _items = new T[Math.Max(4, initialCapacity)];
    }

    public int Count => _count;

    public ref T this[int index]
    {
        get
        {
            Debug.Assert((uint)index < (uint)_count);
            return ref _items[(_head + index) % _items.Length];
        }
    }

    public void PushBack(in T item)
    {
        if (_count == _items.Length)
        {
            Grow();
        }

        _items[(_head + _count) % _items.Length] = item;
        _count++;
    }

    public bool TryPeekFront(out T item)
    {
        if (_count == 0)
        {
            item = default!;
            return false;
        }

        item = _items[_head];
        return true;
    }

    public bool TryPopFront(out T item)
    {
        if (_count == 0)
        {
            item = default!;
            return false;
        }

        item = _items[_head];
        _items[_head] = default!;
        _head = (_head + 1) % _items.Length;
        _count--;
        return true;
    }

    /// <summary>Removes the item at <paramref name="index"/>, keeping the order of the rest; O(n).</summary>
    public void RemoveAt(int index)
    {
        Debug.Assert((uint)index < (uint)_count);
        for (var i = index; i < _count - 1; i++)
        {
            this[i] = this[i + 1];
        }

        this[_count - 1] = default!;
        _count--;
    }

    private void Grow()
    {
        var larger = new T[_items.Length * 2];
        for (var i = 0; i < _count; i++)
        {
            larger[i] = _items[(_head + i) % _items.Length];
        }

        _items = larger;
        _head = 0;
    }
}
