package dev.baton.internal.core;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.jspecify.annotations.Nullable;

/**
 * An immutable list that other immutable values can share rather than copy. A conversation's
 * messages pass from the session to the prompt, the generate options, every model request, the
 * response and back to the session on each turn; each of those values keeps an immutable copy of
 * what it is given, and with {@link List#copyOf} that is a copy of the whole history, element by
 * element, every time. {@link #copyOf} instead hands a {@code SharedList} back as it is and copies
 * anything else in one bulk copy of references.
 *
 * <p>A conversation also grows one message at a time, and loses its leading scaffolding (a system
 * message) between turns. So a {@code SharedList} is a range of an array that lists share: {@link
 * #subList} is a range of the same array, and {@link #append} writes into the array's free room
 * when no other list has claimed the slot after the range, as a Go slice does, copying only when it
 * must. A slot, once claimed and written, never changes, so every list sharing the array stays as
 * it was. A long history thus grows without being copied per message or per turn.
 *
 * <p>Immutable and thread-safe. Null elements are rejected, as {@link List#of} rejects them.
 *
 * @param <E> the element type
 */
public final class SharedList<E> extends AbstractList<E> implements RandomAccess {
  private static final SharedList<?> EMPTY = new SharedList<>(new Store(new Object[0], 0), 0, 0);
  private static final Class<?> ARRAYS_AS_LIST = Arrays.asList().getClass();

  /** Room a copy leaves for appends: a quarter of its size, and never less than this. */
  private static final int MIN_ROOM = 8;

  /**
   * The array lists share, and how far into it lists have claimed slots: a slot below {@code
   * claimed} is written and never changes; the ones above are free.
   */
  private static final class Store {
    private static final AtomicIntegerFieldUpdater<Store> CLAIMED =
        AtomicIntegerFieldUpdater.newUpdater(Store.class, "claimed");

    final Object[] elements;
    volatile int claimed;

    Store(Object[] elements, int claimed) {
      this.elements = elements;
      this.claimed = claimed;
    }

    /** Claims the slot at {@code index} if it is the first free one, for one appender only. */
    boolean claim(int index) {
      return index < elements.length && CLAIMED.compareAndSet(this, index, index + 1);
    }
  }

  private final Store store;
  private final int from;
  private final int to;

  private SharedList(Store store, int from, int to) {
    this.store = store;
    this.from = from;
    this.to = to;
  }

  /** The empty list. */
  @SuppressWarnings("unchecked")
  public static <E> List<E> of() {
    return (List<E>) EMPTY;
  }

  /**
   * An immutable list of the elements of {@code source}, in order: {@code source} itself when it is
   * a {@code SharedList}, otherwise a copy.
   *
   * @throws NullPointerException if an element is null
   */
  @SuppressWarnings("unchecked")
  public static <E> List<E> copyOf(Collection<? extends E> source) {
    if (source instanceof SharedList<? extends E> shared) {
      return (List<E>) shared;
    }
    if (source.isEmpty()) {
      return of();
    }
    Object[] elements = source.toArray();
    // ArrayList and Arrays.asList hand out a fresh Object[]; any other collection might keep the
    // array it returns, or type it narrower, so its array is copied before it is checked.
    if (source.getClass() != ArrayList.class && source.getClass() != ARRAYS_AS_LIST) {
      elements = Arrays.copyOf(elements, elements.length, Object[].class);
    }
    return wrap(requireNoNulls(elements, 0, elements.length), elements.length);
  }

  /**
   * {@code list} with {@code element} added at its end, as a new list; {@code list} is unchanged.
   * The element goes into the array {@code list} shares when the slot after it is free, so a list
   * that only grows is copied only when its array is full.
   *
   * @throws NullPointerException if {@code element} or an element of {@code list} is null
   */
  public static <E> List<E> append(List<? extends E> list, E element) {
    Objects.requireNonNull(element, "element");
    SharedList<? extends E> shared = shared(list);
    Store store = shared.store;
    if (store.claim(shared.to)) {
      store.elements[shared.to] = element;
      return new SharedList<>(store, shared.from, shared.to + 1);
    }
    int size = shared.size();
    Object[] elements = new Object[size + 1 + room(size + 1)];
    System.arraycopy(store.elements, shared.from, elements, 0, size);
    elements[size] = element;
    return wrap(elements, size + 1);
  }

  /**
   * {@code list} with {@code element} in place of the one at {@code index}, as a new list: one bulk
   * copy.
   *
   * @throws NullPointerException if {@code element} or an element of {@code list} is null
   * @throws IndexOutOfBoundsException if {@code index} is not an index of {@code list}
   */
  public static <E> List<E> with(List<? extends E> list, int index, E element) {
    Objects.requireNonNull(element, "element");
    SharedList<? extends E> shared = shared(list);
    Objects.checkIndex(index, shared.size());
    int size = shared.size();
    Object[] elements = new Object[size + room(size)];
    System.arraycopy(shared.store.elements, shared.from, elements, 0, size);
    elements[index] = element;
    return wrap(elements, size);
  }

  /** A builder of a list of about {@code expectedSize} elements, with room to grow after. */
  public static <E> Builder<E> builder(int expectedSize) {
    return new Builder<>(expectedSize);
  }

  /** The number of free slots a copy of {@code size} elements leaves for appends. */
  private static int room(int size) {
    return Math.max(MIN_ROOM, size >> 2);
  }

  private static <E> SharedList<E> wrap(Object[] elements, int size) {
    return new SharedList<>(new Store(elements, size), 0, size);
  }

  @SuppressWarnings("unchecked")
  private static <E> SharedList<E> shared(List<? extends E> list) {
    return (SharedList<E>) copyOf(list);
  }

  private static Object[] requireNoNulls(Object[] elements, int from, int to) {
    for (int i = from; i < to; i++) {
      Objects.requireNonNull(elements[i], "element");
    }
    return elements;
  }

  @Override
  @SuppressWarnings("unchecked")
  public E get(int index) {
    Objects.checkIndex(index, to - from);
    return (E) store.elements[from + index];
  }

  @Override
  public int size() {
    return to - from;
  }

  /** A range of this list: the same array, not a copy, and as immutable. */
  @Override
  public List<E> subList(int fromIndex, int toIndex) {
    Objects.checkFromToIndex(fromIndex, toIndex, size());
    if (fromIndex == 0 && toIndex == size()) {
      return this;
    }
    return new SharedList<>(store, from + fromIndex, from + toIndex);
  }

  @Override
  public Object[] toArray() {
    return Arrays.copyOfRange(store.elements, from, to, Object[].class);
  }

  // A bulk copy: the inherited version copies element by element.
  @Override
  @SuppressWarnings({"unchecked", "NullAway"}) // the List contract ends a longer array with null
  public <T> T[] toArray(T[] target) {
    int size = size();
    if (target.length < size) {
      return (T[]) Arrays.copyOfRange(store.elements, from, to, target.getClass());
    }
    System.arraycopy(store.elements, from, target, 0, size);
    if (target.length > size) {
      target[size] = null;
    }
    return target;
  }

  /**
   * Builds a {@code SharedList} in one array that the built list then owns, with no copy at the
   * end. {@link #addAll} copies a collection in bulk. Not thread-safe; build once.
   *
   * @param <E> the element type
   */
  public static final class Builder<E> {
    private Object @Nullable [] elements;
    private int size;

    private Builder(int expectedSize) {
      this.elements = new Object[expectedSize + room(expectedSize)];
    }

    /**
     * Adds an element.
     *
     * @throws NullPointerException if {@code element} is null
     */
    public Builder<E> add(E element) {
      Object[] array = ensureRoom(1);
      array[size++] = Objects.requireNonNull(element, "element");
      return this;
    }

    /**
     * Adds the elements of {@code source}, in its order.
     *
     * @throws NullPointerException if an element is null
     */
    public Builder<E> addAll(Collection<? extends E> source) {
      if (source instanceof SharedList<? extends E> shared) {
        Object[] array = ensureRoom(shared.size());
        System.arraycopy(shared.store.elements, shared.from, array, size, shared.size());
        size += shared.size();
        return this;
      }
      for (E element : source) {
        add(element);
      }
      return this;
    }

    /** The list; the builder is done. */
    public List<E> build() {
      Object[] array = elements;
      if (array == null) {
        throw new IllegalStateException("this builder has built its list");
      }
      elements = null;
      return wrap(array, size);
    }

    private Object[] ensureRoom(int more) {
      Object[] array = elements;
      if (array == null) {
        throw new IllegalStateException("this builder has built its list");
      }
      if (size + more > array.length) {
        array = Arrays.copyOf(array, size + more + room(size + more));
        elements = array;
      }
      return array;
    }
  }
}
